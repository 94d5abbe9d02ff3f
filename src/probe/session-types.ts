/**
 * What a session is driven with and gives back, apart from the session
 * itself (src/probe/session.ts): its options, the events it records, how it
 * stalled, and the key a stimulus is avoided by in a later session.
 */
import type { Limits, Target } from "../target/connection.ts";
import type { TranscriptEvent } from "../transcript/types.ts";
import type { Clock } from "../target/clock.ts";
import type { Obj } from "../protocol/envelope.ts";
import type { RunBudget } from "./run-budget.ts";

export type RecordedEvent = Omit<TranscriptEvent, "n">;

export interface SessionOptions {
  /** The session's name: "shared", or the name of the one probe it serves. */
  name: string;
  /** The probe that opens the session. */
  probe: string;
  target: Target;
  limits: Limits;
  /** Per-exchange read deadline. */
  timeoutMs: number;
  /**
   * The read deadline of an exchange begun before the provider has sent
   * anything: a provider may index a repository or load a model before it
   * reads its first line. At least timeoutMs.
   */
  startupMs?: number;
  /**
   * Stimuli not to send again (`probe/step`): each ended an earlier session
   * of the same probes. Sending one records that it was passed over, and the
   * exchange it began ends at once with no reply.
   */
  avoid?: ReadonlySet<string>;
  /** Aborted when the run's global deadline passes. */
  signal: AbortSignal;
  /**
   * Consent, decided on each handshake_ack received: why no query payload may
   * be sent to this provider (C2), or undefined when it may.
   */
  withhold?: (ack: Obj) => string | undefined;
  /** Shared by every session of the run; without one, the session has its own. */
  budget?: RunBudget;
  /**
   * The clock its read deadlines are measured on (default the wall clock):
   * for a provider in this process, the loop clock, so that time another
   * session held the thread is not counted against this one's answer.
   */
  clock?: Clock;
}

/** Thrown by send() instead of sending a query payload consent does not allow (C2). */
export class WithheldError extends Error {}

/** How a session stopped being able to answer: what a later session may resume from. */
export type StallKind = "timeout" | "exit" | "eof" | "flood" | "deadline" | "unreachable";

export interface Stall {
  probe: string;
  step: string;
  why: string;
  kind: StallKind;
}

/** The key of a stimulus in SessionOptions.avoid. */
export const stimulusKey = (probe: string, step: string): string => `${probe}/${step}`;
