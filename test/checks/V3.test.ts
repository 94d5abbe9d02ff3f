import V3 from "../../checks/V3.ts";
import { runCases } from "../helpers/cases.ts";
import { notDeclared, verify } from "../helpers/verify.ts";

runCases(V3, [
  {
    name: "all four statuses in the vocabulary",
    build: verify({ "verify-never-served": (vs) => vs.map((v) => ({ ...v, status: "unknown" })) }),
    status: "pass",
    says: [/every verdict status is in the vocabulary/],
  },
  {
    name: "a status outside the vocabulary",
    build: verify({ "verify-served": (vs) => vs.map((v) => ({ ...v, status: "fresh" })) }),
    status: "fail",
    codes: ["V3.unknown-status"],
    says: [/a verdict in reply to verify-served has status "fresh" \| valid \| stale \| gone \| unknown \| "fresh"/],
  },
  {
    name: "an uppercase status",
    build: verify({ "verify-never-served": (vs) => vs.map((v) => ({ ...v, status: "GONE" })) }),
    status: "fail",
    codes: ["V3.unknown-status"],
    says: [/reply to verify-never-served has status "GONE"/],
  },
  { name: "no status", build: verify({ "verify-served": (vs) => vs.map((v) => ({ frame: v.frame })) }), status: "fail", says: [/has status absent/] },
  { name: "verify not declared", build: notDeclared, status: "skip" },
]);
