import { isSyncAnswer } from "../../src/protocol/envelope.ts";
import type { TranscriptEvent } from "../../src/transcript/types.ts";
import { type Message, type ProbeView } from "../../src/transcript/view.ts";

/**
 * What followed a stimulus that a probe chased with a valid "sync" query: the
 * provider's replies to the stimulus (everything before the sync query's
 * answer), the answer itself, or how the provider failed to give one.
 */
export interface StimulusOutcome {
  sent: TranscriptEvent;
  replies: Message[];
  answer?: Message;
  /** Set when the sync query got no answer: why, and the line that shows it. */
  silence?: { why: string; line: number };
}

export function stimulusOutcome(v: ProbeView, step: string, syncStep: string): StimulusOutcome | undefined {
  const sent = v.events.find((e) => e.dir === "send" && e.step === step);
  if (!sent) return undefined;
  const syncId = v.sent(syncStep)[0]?.env.id;
  const window = [...v.received(step), ...v.received(syncStep)];
  const at = window.findIndex((m) => isSyncAnswer(m.env, syncId));
  if (at !== -1) return { sent, replies: window.slice(0, at), answer: window[at] };
  const exit = v.events.find((e) => e.note === "exit" && (e.step === step || e.step === syncStep));
  const timeout = v.notes("timeout", syncStep)[0];
  const silence =
    exit && exit.reason === undefined
      ? { why: `the provider exited (code ${exit.exitCode}, signal ${exit.signal})`, line: exit.n }
      : timeout
        ? { why: `the following valid query got no reply within ${timeout.waitedMs} ms`, line: timeout.n }
        : { why: "the following valid query got no reply", line: sent.n };
  return { sent, replies: window, silence };
}
