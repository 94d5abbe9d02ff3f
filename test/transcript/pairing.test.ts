import t from "tap";
import { stimulusOutcome } from "../../checks/kit/stimulus.ts";
import { UNKNOWN_TYPE } from "../../src/protocol/probes.ts";
import { ProbeView } from "../../src/transcript/view.ts";
import type { TranscriptEvent } from "../../src/transcript/types.ts";

const base = { probe: UNKNOWN_TYPE.name, session: UNKNOWN_TYPE.name, t: 0 };
let n = 1;
const send = (step: string, env: object, seq: number): TranscriptEvent => ({ ...base, n: ++n, step, dir: "send", line: JSON.stringify(env), seq });
const recv = (step: string, env: object, replyTo?: number): TranscriptEvent => ({
  ...base,
  n: ++n,
  step,
  dir: "recv",
  line: JSON.stringify(env),
  bytes: 10,
  ...(replyTo !== undefined ? { reply_to: replyTo } : {}),
});

t.test("over HTTP a reply is the answer to the request the binding paired it with, whatever it says", async (t) => {
  n = 1;
  const { notification, after } = UNKNOWN_TYPE.steps;
  // A correlating provider answers the notification POST with id-less frames, and the query POST with its answer.
  const events = [
    send(notification, { type: "acme:notice" }, 3),
    send(after, { type: "query", id: "unknown-sync", query: {} }, 4),
    recv(after, { type: "frames", result: { frames: [], truncated: false } }, 3),
    recv(after, { type: "frames", id: "unknown-sync", result: { frames: [], truncated: false } }, 4),
  ];
  const o = stimulusOutcome(new ProbeView(UNKNOWN_TYPE, events), notification, after);
  t.equal(o?.answer?.n, 5, "the response to the query POST is its answer");
  t.same(
    o?.replies.map((m) => m.n),
    [4],
    "the id-less frames answered the notification, and is judged as that",
  );
  t.equal(new ProbeView(UNKNOWN_TYPE, events).answer(after)?.n, 5, "answer() pairs the same way");
});

t.test("on stdio, with correlation, the sync answer is the one carrying its id; an id-less error before it is the stimulus's", async (t) => {
  n = 1;
  const { notification, after } = UNKNOWN_TYPE.steps;
  const events = [
    send(notification, { type: "acme:notice" }, 3),
    send(after, { type: "query", id: "unknown-sync", query: {} }, 4),
    recv(after, { type: "error", code: "bad_request", message: "?" }),
    recv(after, { type: "frames", id: "unknown-sync", result: { frames: [], truncated: false } }),
  ];
  const o = stimulusOutcome(new ProbeView(UNKNOWN_TYPE, events), notification, after);
  t.equal(o?.answer?.n, 5);
  t.same(
    o?.replies.map((m) => m.n),
    [4],
  );
});
