/** Shared builders for the capability checks (H4, Q1, E1): an ack declaring capabilities, and the two ways a step goes unanswered. */
import { ACK, type TranscriptBuilder } from "./transcript.ts";

/** The ack with these capabilities (query.kinds [] unless given). */
export const acking = (caps: Record<string, unknown>): object => ({ ...ACK, capabilities: { query: { kinds: [] }, ...caps } });

/** The step waited 800 ms for a reply that never came. */
export const timeout = (b: TranscriptBuilder): TranscriptBuilder => b.note("timeout", { waitedMs: 800, expecting: "a reply" });

/** The provider closed its output and exited with status 1. */
export const dies = (b: TranscriptBuilder): TranscriptBuilder => b.note("eof").note("exit", { exitCode: 1, signal: null });
