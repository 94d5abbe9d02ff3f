import V4 from "../../checks/V4.ts";
import { runCases } from "../helpers/cases.ts";
import { notDeclared, verify } from "../helpers/verify.ts";

runCases(V4, [
  { name: "stale verdicts with replacement digests", build: verify(), status: "pass", says: [/every replacement_digest is sha256:<64 lowercase hex>/] },
  {
    name: "a replacement that is a body",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ ...v, replacement_digest: "abcd" })) }),
    status: "fail",
    says: [/a "stale" verdict in reply to verify-mutated has replacement_digest "abcd" \| sha256:<64 lowercase hex> \| "abcd"/],
  },
  {
    name: "a replacement digest in uppercase hex",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ ...v, replacement_digest: String(v.replacement_digest).replace("sha256:", "SHA256:") })) }),
    status: "fail",
    says: [/has replacement_digest "SHA256:[0-9a-f]{64}"/],
  },
  {
    name: "stale verdicts without replacement digests (it MAY carry one)",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ frame: v.frame, status: "stale" })) }),
    status: "skip",
    says: [/no verdict carried a replacement_digest/],
  },
  { name: "verify not declared", build: notDeclared, status: "skip", says: [/capabilities\.verify is not declared/] },
]);
