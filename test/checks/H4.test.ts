import H4 from "../../checks/H4.ts";
import { afterIdStep, CORRELATION, CORRELATION_IDS as IDS } from "../../src/protocol/probes.ts";
import { acking, dies, timeout } from "../helpers/capabilities.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

/**
 * Probe correlation, as a run records it (lines 2–3 the handshake):
 * id-first 4/5, id-second 6/7, id-refused 8/9, id-verify 10/11.
 * A reply given as null is never sent: the step times out and the probe stops.
 */
type CorrelationStep = keyof typeof CORRELATION.steps;
function correlation(replies: Partial<Record<CorrelationStep, object | null>> = {}): () => TranscriptBuilder {
  const verifyReq = { type: "verify", id: IDS.verify, request: { frames: [{ provider_id: "canned", frame_id: "cgp-conform:correlation" }] } };
  const steps: Array<[CorrelationStep, object, object]> = [
    ["first", query(IDS.first), frames(IDS.first, [frame()])],
    ["second", query(IDS.second), frames(IDS.second, [frame()])],
    [
      "refused",
      query(IDS.error, { representation_preferences: ["compact"] }),
      { type: "error", id: IDS.error, code: "unsupported_representation", message: "not offered: compact" },
    ],
    ["verify", verifyReq, { type: "verified", id: IDS.verify, response: { verdicts: [{ frame: verifyReq.request.frames[0], status: "gone" }] } }],
  ];
  return () => {
    const b = tx()
      .probe(CORRELATION.name)
      .handshake(acking({ correlation: true, verify: true }));
    for (const [key, request, honest] of steps) {
      b.send(CORRELATION.steps[key], request);
      const r = key in replies ? replies[key] : honest;
      if (r === null) return timeout(b);
      b.recv(r!);
    }
    return b;
  };
}

const unframed = { type: "frames", result: { frames: [], truncated: false } };

runCases(H4, [
  {
    name: "every reply echoes its id, byte for byte",
    build: correlation(),
    status: "pass",
    codes: ["H4.echoed"],
    says: [/"frames" echoes id "Q-Äb\/c 1✓"/, /"frames" echoes id "q-äB\/c 1✓"/, /"error" echoes id "E-Ñ\/2 ✓"/, /"verified" echoes id "V-ß\/3 ✓"/],
  },
  {
    name: "correlation not declared: lock-step, no id to echo",
    build: () => tx().probe(CORRELATION.name).handshake(acking({})),
    status: "skip",
    says: [/capabilities\.correlation is not declared/],
  },
  {
    name: "frames that drop the id",
    build: correlation({ first: unframed }),
    status: "fail",
    codes: ["H4.id-dropped"],
    says: [/the "frames" answering the "query" request "Q-Äb\/c 1✓" \(line \d+\) carries no id \| "Q-Äb\/c 1✓" \| absent/],
  },
  {
    name: "an id echoed case-folded",
    build: correlation({ second: frames("q-äb/c 1✓", []) }),
    status: "fail",
    codes: ["H4.id-altered"],
    says: [/the "frames" answering the "query" request "q-äB\/c 1✓" \(line \d+\) carries id "q-äb\/c 1✓", not the same string/],
  },
  {
    name: "an id echoed Unicode-normalised (NFD)",
    build: correlation({ first: frames(IDS.first.normalize("NFD"), []) }),
    status: "fail",
    codes: ["H4.id-altered"],
    says: [/answering the "query" request "Q-Äb\/c 1✓" \(line \d+\) carries id .*, not the same string/],
  },
  {
    name: "an error that drops the id",
    build: correlation({ refused: { type: "error", code: "unsupported_representation", message: "not offered" } }),
    status: "fail",
    codes: ["H4.id-dropped"],
    says: [/the "error" "unsupported_representation" answering the "query" request "E-Ñ\/2 ✓" \(line \d+\) carries no id/],
  },
  {
    name: "a verified carrying another request's id",
    build: correlation({ verify: { type: "verified", id: IDS.first, response: { verdicts: [] } } }),
    status: "fail",
    codes: ["H4.id-altered"],
    says: [/the "verified" answering the "verify" request "V-ß\/3 ✓" \(line \d+\) carries id "Q-Äb\/c 1✓", not the same string/],
  },
  {
    name: "a request left unanswered",
    build: correlation({ second: null }),
    status: "unobserved",
    codes: ["H4.no-reply"],
    untestable: true,
    says: [/request "q-äB\/c 1✓" \(line 6\) got no reply to check: no reply within 800 ms/],
  },
  {
    name: "the provider dies on a request",
    build: () =>
      dies(
        tx()
          .probe(CORRELATION.name)
          .handshake(acking({ correlation: true }))
          .send(CORRELATION.steps.first, query(IDS.first)),
      ),
    status: "unobserved",
    codes: ["H4.no-reply"],
    untestable: true,
    says: [/request "Q-Äb\/c 1✓" \(line 4\) got no reply to check: the provider exited \(code 1\)/],
  },
  {
    name: "a malformed query's bad_request error echoes its id",
    build: chased({ type: "error", id: IDS.malformed, code: "bad_request", message: "goal must be a string" }),
    status: "pass",
    says: [/"error" echoes id "M-Ø\/4 ✓"/],
  },
  {
    name: "a malformed query's bad_request error drops its id",
    build: chased({ type: "error", code: "bad_request", message: "goal must be a string" }),
    status: "fail",
    codes: ["H4.id-dropped"],
    says: [/the "error" "bad_request" answering the "query" request "M-Ø\/4 ✓" \(line 12\) carries no id \| "M-Ø\/4 ✓" \| absent/],
  },
  {
    // Replying to a malformed request is R1's SHOULD: silence is not H4's finding, and costs no timeout (the chasing query is answered).
    name: "a malformed query left unanswered: nothing for H4 to judge there",
    build: chased(undefined),
    status: "pass",
  },
  {
    // Correlation exists so that replies may come out of order: an error echoing another request's id answers that one, late.
    name: "an error that arrives after the next query's answer is not taken for the next request's reply",
    build: () =>
      chased(undefined)()
        .send(CORRELATION.steps.unknownType, { type: "acme:subscribe", id: IDS.unknownType })
        .send(afterIdStep(CORRELATION.steps.unknownType), query("id-sync-2"))
        .recv({ type: "error", id: IDS.malformed, code: "bad_request", message: "late" })
        .recv({ type: "error", id: IDS.unknownType, code: "bad_request", message: "unknown type" })
        .recv(frames("id-sync-2", [])),
    status: "pass",
    says: [/"error" echoes id "T-Ç\/6 ✓"/],
  },
]);

/** The standard steps, then a malformed query with an id (12), chased by a valid query (13) and its answer. */
function chased(reply: object | undefined): () => TranscriptBuilder {
  return () => {
    const b = correlation()();
    b.send(CORRELATION.steps.malformed, { type: "query", id: IDS.malformed, query: { goal: 7 } }).send(
      afterIdStep(CORRELATION.steps.malformed),
      query("id-sync-1"),
    );
    if (reply) b.recv(reply);
    return b.recv(frames("id-sync-1", []));
  };
}
