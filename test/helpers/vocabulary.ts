/** Small reply builders the vocabulary and unknown-thing checks (U1–U3) share. */
import type { TranscriptBuilder } from "./transcript.ts";

/** No reply: the probe waited 800 ms. */
export const timeout = (b: TranscriptBuilder): TranscriptBuilder => b.note("timeout", { waitedMs: 800, expecting: "a reply" });
/** The provider closes stdout and exits 1. */
export const dies = (b: TranscriptBuilder): TranscriptBuilder => b.note("eof").note("exit", { exitCode: 1, signal: null });
/** An error envelope with this code (none when undefined) and correlation id. */
export const err = (code: string | undefined, id?: string): object => ({
  type: "error",
  ...(id ? { id } : {}),
  ...(code === undefined ? {} : { code }),
  message: "refused",
});
