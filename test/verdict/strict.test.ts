import t from "tap";
import { applyStrict } from "../../src/verdict/strict.ts";
import { type CheckResult, type EvidenceResult } from "../../src/verdict/status.ts";

const ev = (status: EvidenceResult["status"], extra: Partial<EvidenceResult> = {}): EvidenceResult => ({
  ok: status === "pass",
  code: "X1.finding",
  params: {},
  message: `a ${status}`,
  lines: [1],
  status,
  ...extra,
});
const res = (id: string, status: CheckResult["status"], evidence: EvidenceResult[], extra: Partial<CheckResult> = {}): CheckResult => ({
  requirement: "",
  id,
  title: `check ${id}`,
  level: "MUST",
  status,
  untestable: false,
  evidence,
  ...extra,
});

t.test("warn evidence becomes fail and the check status is recomputed", async (t) => {
  const input = [
    res("R1", "warn", [ev("pass"), ev("warn", { level: "SHOULD" })]),
    res("F1", "pass", [ev("pass")]),
    res("S6-signatures", "info", [ev("pass"), ev("info", { level: "MAY" })]),
    res("B3", "fail", [ev("fail"), ev("warn", { level: "SHOULD" })]),
    res("G4", "skip", [], { reason: "no graph capability" }),
  ];
  const out = applyStrict(input);
  t.same(
    out.map((r) => r.status),
    ["fail", "pass", "info", "fail", "skip"],
  );
  t.same(
    out[0]!.evidence.map((e) => e.status),
    ["pass", "fail"],
  );
  t.equal(out[0]!.evidence[1]!.level, "SHOULD", "the evidence keeps its level");
  t.same(
    out[2]!.evidence.map((e) => e.status),
    ["pass", "info"],
    "MAY stays info",
  );
  t.same(
    out[3]!.evidence.map((e) => e.status),
    ["fail", "fail"],
  );
  t.equal(out[4]!.reason, "no graph capability");
});

t.test("pure: the input is untouched and new objects are returned", async (t) => {
  const input = [res("R1", "warn", [ev("warn", { level: "SHOULD" })])];
  const before = JSON.parse(JSON.stringify(input));
  const out = applyStrict(input);
  t.same(input, before);
  t.not(out[0], input[0]);
  t.not(out[0]!.evidence[0], input[0]!.evidence[0]);
  t.not(out[0]!.evidence[0]!.lines, input[0]!.evidence[0]!.lines);
});

t.test("a result set with nothing to harden is unchanged in value", async (t) => {
  const input = [res("H1", "pass", [ev("pass")]), res("U1", "fail", [ev("fail", { untestable: true })], { untestable: true })];
  t.same(applyStrict(input), input);
});

t.test("a warning on an outcome stated with no keyword stays a warning", async (t) => {
  const input = [
    res("D1", "warn", [ev("pass"), ev("warn", { level: "NONE" })]),
    res("S6-as-of", "warn", [ev("warn")], { level: "NONE" }),
    res("Q1", "warn", [ev("warn", { level: "NONE" }), ev("warn", { level: "SHOULD" })]),
  ];
  const out = applyStrict(input);
  t.same(
    out.map((r) => r.status),
    ["warn", "warn", "fail"],
  );
  t.same(
    out[2]!.evidence.map((e) => e.status),
    ["warn", "fail"],
    "only the SHOULD is promoted",
  );
});
