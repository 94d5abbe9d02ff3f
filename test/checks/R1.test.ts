import R1 from "../../checks/R1.ts";
import { afterStep, MALFORMED_INPUT, malformedLines, UNKNOWN_KIND, UNKNOWN_KIND_PROBE } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

const badRequest = { type: "error", code: "bad_request", message: "bad" };

const LOCKSTEP = { ...ACK, capabilities: { query: { kinds: [] } } };
const STIMULI = malformedLines(true);

/** malformed-input with a reply per stimulus (undefined: none); `dieAt` stops the provider there. */
function malformed(
  reply: (i: number) => object | undefined,
  dieAt?: number,
  correlated = true,
  tail: (b: TranscriptBuilder) => TranscriptBuilder = healthyUnknownKind,
): () => TranscriptBuilder {
  return () => {
    const b = tx()
      .probe(MALFORMED_INPUT.name)
      .handshake(correlated ? ACK : LOCKSTEP);
    for (const [i, st] of malformedLines(correlated).entries()) {
      b.send(st.step, st.line);
      const id = `sync-${i + 1}`;
      b.send(afterStep(st.step), query(id));
      if (i === dieAt) return tail(b.note("eof").note("exit", { exitCode: 1, signal: null }));
      const r = reply(i);
      if (r) b.recv(r);
      b.recv(frames(id, []));
    }
    return tail(b);
  };
}

/** The unknown-kind session R1 also reads: answered, and alive after. */
function healthyUnknownKind(b: TranscriptBuilder): TranscriptBuilder {
  return unknownKindStart(b).recv(frames("ukind-1", [])).send(UNKNOWN_KIND_PROBE.steps.after, query("ukind-sync")).recv(frames("ukind-sync", []));
}

function unknownKindStart(b: TranscriptBuilder = tx()): TranscriptBuilder {
  return b
    .probe(UNKNOWN_KIND_PROBE.name)
    .handshake()
    .send(UNKNOWN_KIND_PROBE.steps.unknown, query("ukind-1", { kinds: [UNKNOWN_KIND] }));
}

runCases(R1, [
  { name: "bad_request to each, alive throughout", build: malformed(() => badRequest), status: "pass" },
  { name: "silent but alive", build: malformed(() => undefined), status: "warn", strict: "fail", says: [/did not reply error bad_request \| .* \| no reply/] },
  { name: "another error code", build: malformed(() => ({ ...badRequest, code: "internal" })), status: "warn", says: [/"error" code "internal"/] },
  {
    name: "dies on the garbage line",
    build: malformed(() => badRequest, 0),
    status: "fail",
    says: [/the provider exited \(code 1\) on the line "this is not json \{\{" \(probe malformed-input, step bad-garbage, line \d+\)/],
  },
  {
    name: "dies on the query without a body",
    build: malformed(() => badRequest, 4),
    status: "fail",
    says: [/the provider exited \(code 1\) on a "query" with no query member \(probe malformed-input, step bad-query-no-body/],
  },
  {
    name: "the empty object (maybe a notification) left unanswered: no warning",
    build: malformed((i) => (i === 1 ? undefined : badRequest)),
    status: "pass",
    says: [/after an empty JSON object .*the provider answered the next valid query/],
  },
  {
    name: "lock-step: no typeless request is sent, and the rest is judged",
    build: malformed(() => badRequest, undefined, false),
    status: "pass",
    // No id on the request-shaped stimuli, and no typeless request: line 16 is the no-body query, sent as {"type":"query"}.
    says: [/after a query with no query member \("\{\\"type\\":\\"query\\"\}", line 16\), the provider answered/],
  },
  {
    name: "dies on a query for an unknown kind",
    build: () =>
      unknownKindStart(
        malformed(
          () => badRequest,
          undefined,
          true,
          (b) => b,
        )(),
      )
        .note("eof")
        .note("exit", { exitCode: 1, signal: null }),
    status: "fail",
    says: [/the provider exited \(code 1\) on a "query" \{"kinds":\["acme:diagram"\]\} \(probe unknown-kind, step unknown-kind, line \d+\)/],
  },
  {
    name: "answers the unknown kind with any error, then the next query",
    build: () =>
      unknownKindStart(
        malformed(
          () => badRequest,
          undefined,
          true,
          (b) => b,
        )(),
      )
        .recv({ type: "error", id: "ukind-1", code: "bad_request", message: "no such kind" })
        .send(UNKNOWN_KIND_PROBE.steps.after, query("ukind-sync"))
        .recv(frames("ukind-sync", [])),
    status: "pass",
    says: [/after a query for the unknown kind acme:diagram, the provider answered the next query/],
  },
  {
    name: "stops answering",
    build: () =>
      tx()
        .probe(MALFORMED_INPUT.name)
        .handshake()
        .send(STIMULI[0].step, STIMULI[0].line)
        .send(afterStep(STIMULI[0].step), query("sync-1"))
        .note("timeout", { waitedMs: 800 })
        .probe(UNKNOWN_KIND_PROBE.name)
        .handshake()
        .send(UNKNOWN_KIND_PROBE.steps.unknown, query("ukind-1", { kinds: [UNKNOWN_KIND] }))
        .recv(frames("ukind-1", [])),
    status: "fail",
    says: [/got no reply within 800 ms/],
  },
  {
    name: "over HTTP the stimulus is never answered, so the valid query behind it is never sent",
    build: () =>
      tx()
        .probe(MALFORMED_INPUT.name)
        .handshake()
        .send(STIMULI[0].step, STIMULI[0].line)
        .step(afterStep(STIMULI[0].step))
        .note("timeout", { waitedMs: 800 })
        .note("unsent", { line: JSON.stringify(query("sync-1")), seq: 3, reason: "the session ended before its turn" })
        .probe(UNKNOWN_KIND_PROBE.name)
        .handshake()
        .send(UNKNOWN_KIND_PROBE.steps.unknown, query("ukind-1", { kinds: [UNKNOWN_KIND] }))
        .recv(frames("ukind-1", [])),
    status: "fail",
    says: [
      /after a line that is not JSON .*, nothing answered within 800 ms, and the following valid query was never sent \(the session ended before its turn\)/,
    ],
  },
]);
