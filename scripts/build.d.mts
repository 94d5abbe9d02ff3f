// Types of build.mjs, for the scripts and tests that import it.
export declare const ROOT: string;
export declare const START_JIT_POLICY: number;
export declare const COMPILE_FLAGS: readonly string[];
export declare const BINARY: string;
export declare const BUNDLE: string;
export declare function buildBinary(outfile?: string, target?: string): string;
export declare function buildBundle(outfile?: string): string;
