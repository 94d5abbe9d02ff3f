import R1 from "../../checks/R1.ts";
import R2 from "../../checks/R2.ts";
import { afterStep, MALFORMED_STIMULI as STIMULI } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

const badRequest = { type: "error", code: "bad_request", message: "bad" };

/** malformed-input with a reply per stimulus (undefined: none); `dieAt` stops the provider there. */
function malformed(reply: (i: number) => object | undefined, dieAt?: number): () => TranscriptBuilder {
  return () => {
    const b = tx().probe("malformed-input").handshake();
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
  { name: "dies on the garbage line", build: malformed(() => badRequest, 0), status: "fail", says: [/after a line that is not JSON .*the provider exited \(code 1/] },
  { name: "dies on the query without a body", build: malformed(() => badRequest, 3), status: "fail", says: [/after a query with no query member/] },
  {
    name: "stops answering",
    build: () => tx().probe("malformed-input").handshake().send(STIMULI[0].step, STIMULI[0].line).send(afterStep(STIMULI[0].step), query("sync-1")).note("timeout", { waitedMs: 800 }),
    status: "fail",
    says: [/got no reply within 800 ms/],
  },
]);

const shut = (after: (b: TranscriptBuilder) => TranscriptBuilder) => () => after(tx().probe("shutdown").handshake().send("shutdown", { type: "shutdown" }));

runCases(R2, [
  { name: "exits 0", build: shut((b) => b.note("eof").note("exit", { exitCode: 0, signal: null })), status: "pass", says: [/exited with status 0/] },
  { name: "exits 3", build: shut((b) => b.note("exit", { exitCode: 3, signal: null })), status: "fail", says: [/exit status 3/] },
  { name: "dies by a signal", build: shut((b) => b.note("exit", { exitCode: null, signal: "SIGSEGV" })), status: "fail", says: [/signal SIGSEGV/] },
  {
    name: "has to be killed",
    build: shut((b) => b.note("killed", { reason: "the provider had not exited 1000 ms after shutdown" }).note("exit", { exitCode: null, signal: "SIGKILL", reason: "killed by cgp-conform" })),
    status: "fail",
    says: [/still running after shutdown \(the provider had not exited 1000 ms after shutdown\), so cgp-conform killed it/],
  },
]);
