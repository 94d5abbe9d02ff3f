import V1 from "../../checks/V1.ts";
import { type Obj } from "../../src/protocol/envelope.ts";
import { runCases } from "../helpers/cases.ts";
import { notDeclared, undigested, verify } from "../helpers/verify.ts";

runCases(V1, [
  { name: "identities and statuses only", build: verify(), status: "pass", says: [/no verdict carries a frame body/] },
  {
    name: "a verdict carrying the content",
    build: verify({ "verify-served": (vs) => vs.map((v) => ({ ...v, content: "abcd" })) }),
    status: "fail",
    says: [/a verdict in reply to verify-served carries content: a body travelled \| frame identity, status, and at most a replacement_digest \| \{"frame":/],
  },
  {
    name: "a stale verdict carrying the current frame",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ ...v, frame: { ...(v.frame as Obj), content: "abcd" }, body: "abcd" })) }),
    status: "fail",
    says: [/a verdict in reply to verify-mutated carries body, frame\.content: a body travelled/],
  },
  { name: "verify not declared", build: notDeclared, status: "skip", says: [/capabilities\.verify is not declared/] },
  { name: "no served frame has a content_digest", build: undigested, status: "skip", says: [/there was no identity to verify/] },
  {
    name: "no verdict at all",
    build: verify({ "verify-served": () => [], "verify-mutated": () => [], "verify-never-served": () => [] }),
    status: "skip",
    says: [/no verdict was received/],
  },
]);
