import H2 from "../../checks/H2.ts";
import { runCases } from "../helpers/cases.ts";
import { acked } from "../helpers/handshake.ts";
import { ACK } from "../helpers/transcript.ts";

runCases(H2, [
  { name: "both present", build: acked({}), status: "pass", codes: ["H2.present"] },
  { name: "empty name", build: acked({ provider: { ...ACK.provider, name: "" } }), status: "fail", says: [/provider\.name is empty/], codes: ["H2.empty"] },
  { name: "missing version", build: acked({ provider: { name: "x" } }), status: "fail", says: [/provider\.version is empty or missing/], codes: ["H2.empty"] },
  { name: "no provider object", build: acked({ provider: undefined }), status: "fail", codes: ["H2.empty"] },
]);
