import { isSyncAnswer } from "../../src/protocol/envelope.ts";
import type { TranscriptEvent } from "../../src/transcript/types.ts";
import { exitWords, type Message, type ProbeView } from "../../src/transcript/view.ts";
import { fateOf } from "../../src/transcript/fate.ts";

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
  // A chase sent in another session (the stimulus's own ended before it was sent) says nothing of what the stimulus did.
  const sync = v.sent(syncStep).find((m) => m.session === sent.session);
  if (!sync) {
    // The sync query never went out (over HTTP it waits until the stimulus is answered): what kept it is the outcome.
    const mine = (e: TranscriptEvent): boolean => e.session === sent.session;
    const unsent = v.notes("unsent", syncStep).find(mine);
    if (unsent) {
      const timeout = v.notes("timeout", syncStep).find(mine) ?? v.notes("timeout", step).find(mine);
      const why = `the following valid query was never sent (${unsent.reason})`;
      return {
        sent,
        replies: v.received(step),
        silence: timeout ? { why: `nothing answered within ${timeout.waitedMs} ms, and ${why}`, line: timeout.n } : { why, line: unsent.n },
      };
    }
    // The probe stopped before chasing the stimulus: what became of the stimulus itself is the outcome.
    const s = v.silence(step);
    return { sent, replies: v.received(step), silence: { why: s.why, line: s.lines.at(-1) ?? sent.n } };
  }
  if (v.paired) return pairedOutcome(v, sent, sync);
  const syncId = sync.env.id;
  const window = [...v.received(step), ...v.received(syncStep)].sort((a, b) => a.n - b.n);
  // Over HTTP the binding pairs each response with its request; on stdio, order and id decide.
  const paired = sync?.seq !== undefined && window.some((m) => m.replyTo !== undefined);
  // Nothing received before the sync query was sent answers it: frames that came first answer the stimulus.
  const later = (m: Message): boolean => m.n > sync.n;
  // With correlation, the reply carrying the sync query's id is its answer even when an id-less frames came first.
  const byId =
    syncId === undefined || paired ? -1 : window.findIndex((m) => later(m) && m.env.id === syncId && (m.env.type === "frames" || m.env.type === "error"));
  const at = paired ? window.findIndex((m) => m.replyTo === sync.seq) : byId !== -1 ? byId : window.findIndex((m) => later(m) && isSyncAnswer(m.env, syncId));
  if (at !== -1) return { sent, replies: window.slice(0, at), answer: window[at] };
  const exit = v.events.find((e) => e.note === "exit" && (e.step === step || e.step === syncStep));
  const timeout = v.notes("timeout", syncStep)[0];
  const silence =
    exit && exit.reason === undefined
      ? { why: exitWords(v.events, exit), line: exit.n }
      : timeout
        ? { why: `the following valid query got no reply within ${timeout.waitedMs} ms`, line: timeout.n }
        : { why: "the following valid query got no reply", line: sent.n };
  return { sent, replies: window, silence };
}

/**
 * The same, read from the pairing the session recorded: the stimulus's
 * replies are those paired with it or attributed to it (a lenient answer, a
 * late one by its id), and the chase's answer is the reply paired with it.
 */
function pairedOutcome(v: ProbeView, sent: TranscriptEvent, sync: Message): StimulusOutcome {
  const replies = sent.seq === undefined ? [] : v.repliesTo({ step: sent.step, seq: sent.seq, session: sent.session });
  const answer = v.answerTo(sync);
  if (answer) return { sent, replies, answer };
  const fate = sync.seq !== undefined ? fateOf(v.recorded, sync.session, sync.seq) : undefined;
  if (fate?.cause) {
    const shown = v.fateShown(fate);
    const exit = fate.cause.kind === "exit";
    return {
      sent,
      replies,
      silence: {
        why: exit ? shown.why : `the following valid query got ${shown.why.startsWith("no reply") ? shown.why : `no reply: ${shown.why}`}`,
        line: shown.lines.at(-1) ?? sent.n,
      },
    };
  }
  return { sent, replies, silence: { why: "the following valid query got no reply", line: sent.n } };
}

/** A request that timed out with the provider still there: no exit, no end of its output, no dropped connection. */
export function unansweredAlive(v: ProbeView, step: string): boolean {
  const notes = v.events.filter((e) => e.dir === "note" && e.step === step).map((e) => e.note);
  return notes.includes("timeout") && !notes.some((n) => n === "exit" || n === "eof" || n === "connect-error" || n === "http-error");
}
