import H1 from "../../checks/H1.ts";
import H2 from "../../checks/H2.ts";
import H3 from "../../checks/H3.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, tx } from "../helpers/transcript.ts";

const hs = { type: "handshake", protocol_version: "contextgraph/1.0" };
const acked = (over: object) => () => tx().probe("handshake").handshake({ ...ACK, ...over });
const foreign = { type: "handshake", protocol_version: "contextgraph/99.0" };
const answered = (reply: object | undefined, extra?: (b: ReturnType<typeof tx>) => void) => () => {
  const b = tx().probe("foreign-version").send("foreign-handshake", foreign);
  if (reply) b.recv(reply);
  extra?.(b);
  return b;
};

runCases(H1, [
  { name: "same family", build: acked({}), status: "pass" },
  { name: "a 1.x minor", build: acked({ protocol_version: "contextgraph/1.7" }), status: "pass" },
  { name: "a -draft of the family", build: acked({ protocol_version: "contextgraph/1.0-draft" }), status: "pass" },
  { name: "another family", build: acked({ protocol_version: "contextgraph/2.0" }), status: "fail", says: [/contextgraph\/2\.0 is in family contextgraph\/2, but the host spoke contextgraph\/1\.0/] },
  { name: "not a version string", build: acked({ protocol_version: "1.0" }), status: "fail", says: [/grammar/] },
  { name: "no reply in time", build: () => tx().probe("handshake").send("handshake", hs).note("timeout", { waitedMs: 900 }), status: "fail", says: [/nothing within 900 ms/] },
  { name: "the wrong envelope", build: () => tx().probe("handshake").send("handshake", hs).recv({ type: "frames", result: { frames: [] } }), status: "fail", says: [/type "frames"/] },
  { name: "the provider would not start", build: () => tx().probe("handshake").note("spawn-error", { reason: "ENOENT" }), status: "fail", untestable: true, says: [/could not be started: ENOENT/] },
]);

runCases(H2, [
  { name: "both present", build: acked({}), status: "pass" },
  { name: "empty name", build: acked({ provider: { ...ACK.provider, name: "" } }), status: "fail", says: [/provider\.name is empty/] },
  { name: "missing version", build: acked({ provider: { name: "x" } }), status: "fail", says: [/provider\.version is empty or missing/] },
  { name: "no provider object", build: acked({ provider: undefined }), status: "fail" },
]);

runCases(H3, [
  { name: "named error", build: answered({ type: "error", code: "incompatible_version", message: "no" }), status: "pass" },
  { name: "left to hang", build: answered(undefined, (b) => b.note("timeout", { waitedMs: 700 })), status: "fail", says: [/no reply within 700 ms: the mismatch was left to hang/] },
  { name: "exits without a word", build: answered(undefined, (b) => b.note("eof").note("exit", { exitCode: 1, signal: null })), status: "fail", says: [/exited \(code 1/] },
  { name: "acked in the host's family", build: answered({ ...ACK }), status: "fail", says: [/acknowledged instead of refused: its protocol_version "contextgraph\/1\.0" is not in the host's family contextgraph\/99, which H1 forbids/] },
  { name: "acked claiming the foreign family", build: answered({ ...ACK, protocol_version: "contextgraph/99.0" }), status: "fail", says: [/a contextgraph\/1\.0 provider cannot speak/] },
  { name: "an error with another code", build: answered({ type: "error", code: "bad_request", message: "?" }), status: "fail", says: [/error with code "bad_request"/] },
]);
