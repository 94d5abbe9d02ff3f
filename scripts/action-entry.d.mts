/** The cgp-conform arguments for the action's inputs (CGP_* environment variables). */
export function argsFrom(e: Record<string, string | undefined>, reportJson: string): string[];
/** The cgp-conform release the action runs: the version input, or the action's own package.json version. */
export function versionFrom(e: Record<string, string | undefined>): string;
