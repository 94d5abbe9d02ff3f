/** Every input action.yml declares. */
export const INPUTS: readonly string[];
/** An input's value from the runner's environment (INPUT_<NAME>); "" when not given. */
export function input(e: Record<string, string | undefined>, name: string): string;
/** The cgp-conform arguments for the action's inputs (INPUT_* environment variables). */
export function argsFrom(e: Record<string, string | undefined>, reportJson: string): string[];
/** The command that runs cgp-conform: the cgp-conform-path input's build, else the action's own dist/cgp-conform.mjs; throws saying what to pin when neither is there. */
export function toolFrom(e: Record<string, string | undefined>, actionDir: string, cwd: string): string[];
