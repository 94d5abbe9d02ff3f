import t from "tap";
import { casesOfJson, judge, reportForJson, type SelftestReport } from "../../src/engine/selftest-case.ts";
import { shardOf } from "../../src/engine/selftest.ts";
import { selftestLine } from "../../src/cli/selftest.ts";
import type { CheckResult, EvidenceResult } from "../../src/verdict/status.ts";

const evidence = (message: string, extra: Partial<EvidenceResult> = {}): EvidenceResult => ({
  ok: false,
  status: "fail",
  code: "X1.finding",
  params: {},
  message,
  lines: [5],
  ...extra,
});

const check = (id: string, ...evidence: EvidenceResult[]): CheckResult => ({
  id,
  title: id,
  level: "MUST",
  requirement: "",
  untestable: false,
  evidence,
  status: evidence.some((e) => e.status === "fail") ? "fail" : "pass",
});

const B3_UTF16 = /declares token_cost 18 but .* \(72 UTF-16 code units/;

t.test("an expected check failing for an unrelated reason is unpinned", async (t) => {
  const c = judge("B3-utf16-length", "stdio", "", ["B3"], [check("B3", evidence("frames envelope at line 5: /result/frames/0 must be object"))], B3_UTF16);
  t.same(c.failed, ["B3"]);
  t.same(c.missed, []);
  t.same(c.unpinned, ["B3"]);
  t.equal(c.ok, false);
});

t.test("an expected check whose failure says what the mode pins is ok", async (t) => {
  const said = evidence('frame "fixture:再試行" declares token_cost 18 but its content is 198 UTF-8 bytes → ceil(198/4) = 50 (72 UTF-16 code units: …)');
  const c = judge("B3-utf16-length", "stdio", "", ["B3"], [check("B3", evidence("unrelated"), said)], B3_UTF16);
  t.same(c.unpinned, []);
  t.equal(c.ok, true);
});

t.test("expected and actual count, passing or untestable evidence does not", async (t) => {
  const pin = /^exit status 3$/;
  t.equal(judge("m", "stdio", "", ["R2"], [check("R2", evidence("ended", { actual: "exit status 3" }))], pin).ok, true);
  t.same(judge("m", "stdio", "", ["R2"], [check("R2", evidence("x"), { ...evidence("exit status 3"), ok: true, status: "pass" })], pin).unpinned, ["R2"]);
  t.same(judge("m", "stdio", "", ["R2"], [check("R2", evidence("x"), evidence("exit status 3", { untestable: true }))], pin).unpinned, ["R2"]);
});

t.test("a record pins each check on its own; a check it leaves out is unpinned", async (t) => {
  const results = [check("H2", evidence("provider.name is empty or missing")), check("F11", evidence("provider_id must not be empty"))];
  t.equal(judge("m", "stdio", "", ["H2", "F11"], results, { H2: /provider\.name is empty/, F11: /provider_id must not be empty/ }).ok, true);
  t.same(judge("m", "stdio", "", ["H2", "F11"], results, { H2: /provider\.name is empty/ }).unpinned, ["F11"]);
  t.same(judge("m", "stdio", "", ["H2", "F11"], results, /provider\.name is empty/).unpinned, ["F11"]);
});

t.test("a missed check is reported missed, not unpinned", async (t) => {
  const c = judge("m", "stdio", "", ["B3"], [check("B3")], /anything/);
  t.same(c.missed, ["B3"]);
  t.same(c.unpinned, []);
  t.equal(c.ok, false);
});

t.test("a SHOULD-level check is caught by its warning; a MUST-level one is not", async (t) => {
  const warned = (level: "SHOULD" | "MUST"): CheckResult => ({
    id: "G3",
    title: "t",
    level,
    requirement: "r",
    status: "warn",
    untestable: false,
    evidence: [{ ok: false, level: "SHOULD", status: "warn", code: "G3.finding", params: {}, message: "the frames near it were not boosted", lines: [4] }],
  });
  t.ok(judge("m", "stdio", "d", ["G3"], [warned("SHOULD")], /not boosted/).ok, "SHOULD check warned: caught");
  t.same(judge("m", "stdio", "d", ["G3"], [warned("MUST")], /not boosted/).missed, ["G3"], "a MUST check that only warned is missed");
});

t.test("a MUST check a mode expects to warn is caught by the pinned warning, and failing instead is a wrong verdict", async (t) => {
  const v4 = (status: "warn" | "fail"): CheckResult => ({
    id: "V4",
    title: "t",
    level: "MUST",
    requirement: "r",
    status,
    untestable: false,
    evidence: [
      {
        ok: false,
        level: status === "warn" ? "SHOULD" : undefined,
        status,
        code: "V4.finding",
        params: {},
        message: "the digest the host presented",
        lines: [4],
      },
    ],
  });
  const pin = /the digest the host presented/;
  t.ok(judge("m", "stdio", "d", [], [v4("warn")], pin, ["V4"]).ok, "warned as expected: caught");
  const failed = judge("m", "stdio", "d", [], [v4("fail")], pin, ["V4"]);
  t.same(failed.extra, ["V4"], "a failure where a warning was expected is an extra failure");
  t.equal(failed.ok, false);
  t.same(judge("m", "stdio", "d", [], [{ ...v4("warn"), status: "pass", evidence: [] }], pin, ["V4"]).missed, ["V4"], "no warning: missed");
});

t.test("a warning on an honest variant makes it unclean", async (t) => {
  const warned: CheckResult = {
    ...check("Q1"),
    status: "warn",
    evidence: [{ ok: false, level: "SHOULD", status: "warn", code: "Q1.finding", params: {}, message: "w", lines: [3] }],
  };
  t.same(judge("honest:lockstep", "stdio", "", [], [warned]).unclean, ["Q1"]);
});

t.test("a check a mode expects to inform is caught by the pinned info, and nothing else is", async (t) => {
  const s11 = (status: "info" | "warn" | "fail" | "pass"): CheckResult => ({
    id: "host:S11-robust",
    title: "t",
    level: "MAY",
    requirement: "r",
    status,
    untestable: false,
    evidence:
      status === "pass"
        ? []
        : [{ ok: false, status, code: "host:S11-robust.not-ended", params: {}, message: "the host did not end within 800 ms", lines: [4] }],
  });
  const pin = /did not end within/;
  t.ok(judge("m", "stdio", "d", [], [s11("info")], pin, [], ["host:S11-robust"]).ok, "informed as expected: caught");
  t.same(judge("m", "stdio", "d", [], [s11("info")], pin).missed, [], "not expected: info is no catch, and no wrong verdict either");
  t.same(judge("m", "stdio", "d", ["host:S11-robust"], [s11("info")], pin).missed, ["host:S11-robust"], "expected to fail: info is missed");
  t.same(judge("m", "stdio", "d", [], [s11("warn")], pin, [], ["host:S11-robust"]).missed, ["host:S11-robust"], "a warning where info was expected is missed");
  t.same(judge("m", "stdio", "d", [], [s11("fail")], pin, [], ["host:S11-robust"]).extra, ["host:S11-robust"], "a failure is an extra failure");
  t.same(judge("m", "stdio", "d", [], [s11("pass")], pin, [], ["host:S11-robust"]).missed, ["host:S11-robust"], "no info: missed");
  t.same(
    judge("m", "stdio", "d", [], [s11("info")], /something else/, [], ["host:S11-robust"]).unpinned,
    ["host:S11-robust"],
    "info that does not say the defect is unpinned",
  );
  t.same(judge("honest:reference-host", "stdio", "d", [], [s11("info")]).unclean, ["host:S11-robust"], "info on the honest host is unclean");
});

t.test("a BAD case run by a shard still says what its checks saw: its results come through the shard's JSON, an ok case's do not", async (t) => {
  const bad = judge("honest", "http", "", [], [check("Q1", evidence("query sent at line 7 got no frames or error reply: no reply within 5000 ms"))]);
  const good = judge("B3-utf16-length", "stdio", "", ["B3"], [check("B3", evidence("declares token_cost 18 but … (72 UTF-16 code units"))], B3_UTF16);
  const report: SelftestReport = { ok: false, checks: 1, modes: 1, host_checks: 0, host_modes: 0, cases: [bad, good] };
  const cases = casesOfJson(JSON.stringify(reportForJson(report)));
  t.same(
    cases?.map((c) => [c.name, c.results.length]),
    [
      ["honest", 1],
      ["B3-utf16-length", 0],
    ],
  );
  t.match(selftestLine(cases![0]!), /\n {7}Q1 fail: query sent at line 7 got no frames or error reply: no reply within 5000 ms$/);
  t.equal(casesOfJson("not json"), undefined, "a shard that printed no report is told apart");
});

t.test("shards: the host cases whose reference host is a process get the last shard to themselves, the rest are shared", async (t) => {
  const cases = Array.from({ length: 10 }, (_, i) => ({ i, apart: i % 4 === 0 }));
  const apart = (c: { apart: boolean }) => c.apart;
  t.same(
    shardOf(cases, { index: 1, of: 1 }, apart).map((c) => c.i),
    cases.map((c) => c.i),
    "one shard runs everything",
  );
  const three = [1, 2, 3].map((index) => shardOf(cases, { index, of: 3 }, apart).map((c) => c.i));
  t.same(three[2], [0, 4, 8], "the last shard: only the cases set apart");
  t.same(three[0], [1, 3, 6, 9]);
  t.same(three[1], [2, 5, 7]);
  t.same(
    [...three.flat()].sort((a, b) => a - b),
    cases.map((c) => c.i),
    "every case runs once",
  );
});

t.test("a pin by code: the code, and the params it gives as a subset; a record may mix codes and patterns", async (t) => {
  const coded = evidence("words that may change", {
    code: "B3.cost-mismatch",
    params: { frame: { id: "a", index: 0, line: 5 }, declared: 18, bytes: 198, miscount: { kind: "characters", n: 72 } },
  });
  const results = [check("B3", coded)];
  t.equal(judge("m", "stdio", "", ["B3"], results, "B3.cost-mismatch").ok, true, "the code alone");
  t.equal(
    judge("m", "stdio", "", ["B3"], results, { code: "B3.cost-mismatch", params: { declared: 18, miscount: { kind: "characters" } } }).ok,
    true,
    "a subset of params, nested",
  );
  t.same(
    judge("m", "stdio", "", ["B3"], results, { code: "B3.cost-mismatch", params: { miscount: { kind: "floor" } } }).unpinned,
    ["B3"],
    "another miscount is another defect",
  );
  t.same(
    judge("m", "stdio", "", ["B3"], results, { code: "B3.cost-mismatch", params: { declared: "18" } }).unpinned,
    ["B3"],
    'equal means equal: 18 is not "18"',
  );
  t.same(judge("m", "stdio", "", ["B3"], results, "B3.other").unpinned, ["B3"], "another code");
  t.same(
    judge("m", "stdio", "", ["B3"], [check("B3", evidence("B3.cost-mismatch"))], "B3.cost-mismatch").unpinned,
    ["B3"],
    "a code is not matched against the words",
  );
  const two = [check("B3", coded), check("F11", evidence("provider_id must not be empty"))];
  t.equal(judge("m", "stdio", "", ["B3", "F11"], two, { B3: { code: "B3.cost-mismatch" }, F11: /provider_id must not be empty/ }).ok, true);
});
