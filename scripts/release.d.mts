// Types of release.mjs, for the tests that import it.
export declare const TARGETS: ReadonlyArray<readonly [target: string, file: string]>;
export declare function selectTargets(args: readonly string[]): Array<readonly [target: string, file: string]>;
export declare function parseSums(text: string): Map<string, string>;
export declare function mergeSums(existing: string, fresh: ReadonlyMap<string, string>): string;
