import R1 from "../../checks/R1.ts";
import { afterStep, MALFORMED_INPUT, MALFORMED_STIMULI as STIMULI } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

const badRequest = { type: "error", code: "bad_request", message: "bad" };

/** malformed-input with a reply per stimulus (undefined: none); `dieAt` stops the provider there. */
function malformed(reply: (i: number) => object | undefined, dieAt?: number): () => TranscriptBuilder {
  return () => {
    const b = tx().probe(MALFORMED_INPUT.name).handshake();
    for (const [i, st] of STIMULI.entries()) {
      b.send(st.step, st.line);
      const id = `sync-${i + 1}`;
      b.send(afterStep(st.step), query(id));
      if (i === dieAt) return b.note("eof").note("exit", { exitCode: 1, signal: null });
      const r = reply(i);
      if (r) b.recv(r);
      b.recv(frames(id, []));
    }
    return b;
  };
}

runCases(R1, [
  { name: "bad_request to each, alive throughout", build: malformed(() => badRequest), status: "pass" },
  { name: "silent but alive", build: malformed(() => undefined), status: "warn", says: [/did not reply error bad_request \| .* \| no reply/] },
  { name: "another error code", build: malformed(() => ({ ...badRequest, code: "internal" })), status: "warn", says: [/"error" code "internal"/] },
  {
    name: "dies on the garbage line",
    build: malformed(() => badRequest, 0),
    status: "fail",
    says: [/after a line that is not JSON .*the provider exited \(code 1/],
  },
  { name: "dies on the query without a body", build: malformed(() => badRequest, 3), status: "fail", says: [/after a query with no query member/] },
  {
    name: "stops answering",
    build: () =>
      tx()
        .probe(MALFORMED_INPUT.name)
        .handshake()
        .send(STIMULI[0].step, STIMULI[0].line)
        .send(afterStep(STIMULI[0].step), query("sync-1"))
        .note("timeout", { waitedMs: 800 }),
    status: "fail",
    says: [/got no reply within 800 ms/],
  },
]);
