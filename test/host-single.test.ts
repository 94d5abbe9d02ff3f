/**
 * A host written apart from the bundled one (test/fakes/host-single.mjs: plain
 * Node, nothing imported from this repository) that takes one provider and
 * composes once, at the end, after a query, a verify and a follow-up query,
 * writing {context} and {usage}: the composition and reuse checks judge it on
 * the single-provider scenarios and the one block it writes in each, on stdio
 * and on HTTP. Honest, every one of them passes, none skipped; with each of
 * four planted defects, exactly the check for that defect fails. Only these
 * checks are run: the host is built for composition alone (it keeps no
 * consent gate, no bearer token), and the other checks have hosts of their own.
 */
import t from "tap";
import { cli, fake } from "./helpers/live.ts";
import type { RunReport } from "../src/verdict/report.ts";

const CHECKS = ["host:B2", "host:CR1-order", "host:CR1-render", "host:D2", "host:D3", "host:V2", "host:V3", "host:V4"];
const TRANSPORTS = [
  ["stdio", ["--provider={provider}"]],
  ["http", ["--url={url}"]],
] as const;
/** Each defect, and the one check (and finding) that must fail for it. */
const DEFECTS = [
  [
    "arrival",
    "host:CR1-order",
    "host:CR1-order.follows-arrival",
    /scenarios compose-one \(line \d+\) and compose-one-reordered \(line \d+\) compose the same 7 frames/,
  ],
  ["score", "host:CR1-render", "host:CR1-render.score-rendered", /scenarios compose-one \(line \d+\) and compose-one-rescored \(line \d+\)/],
  ["keep", "host:B2", "host:B2.composed-all", /scenario budget-breaker-one, line \d+: the block composes all 3 frames of cgp-conform-lumpy/],
  [
    "stale",
    "host:V4",
    "host:V4.stored-copy",
    /scenario reuse, the first block \(\{context\} line \d+\): it holds the stored copy of "fixture:changed" \(cgpmark-re-02\)/,
  ],
] as const;

async function judged(transport: string, provider: readonly string[], defect?: string) {
  const only = CHECKS.flatMap((c) => ["--only", c]);
  const host = [...fake("host-single"), ...provider, "--context={context}", "--usage={usage}", ...(defect ? [`--defect=${defect}`] : [])];
  const r = await cli(["host", "--json", "--transport", transport, ...only, "--", ...host]);
  return { ...r, report: JSON.parse(r.stdout) as RunReport };
}

const statuses = (report: RunReport) => Object.fromEntries(report.results.map((x) => [x.id, x.status]));

for (const [transport, provider] of TRANSPORTS) {
  t.test(`${transport}: a one-provider host that composes once is judged by every composition check, and passes`, async (t) => {
    const { report, exitCode, stderr } = await judged(transport, provider);
    t.equal(exitCode, 0, `conformant, exit 0 (${stderr.slice(-300)})`);
    t.same(statuses(report), Object.fromEntries(CHECKS.map((c) => [c, "pass"])), "each check judged, and passed");
    const said = report.results.flatMap((x) => x.evidence.map((e) => e.message)).join("\n");
    t.match(
      said,
      /scenarios compose-one \(line \d+\) and compose-one-reordered \(line \d+\): the same 7 frames, served in other orders, render byte-identically/,
    );
    t.match(said, /scenarios compose-one \(line \d+\) and compose-one-rescored \(line \d+\): the same 7 frames, every score changed, render byte-identically/);
    t.match(said, /scenario budget-breaker-one: no block composes a frame of cgp-conform-lumpy \(\{(provider|url)\}\), its answer over budget/);
    t.match(said, /the host reported the drop/);
    t.match(said, /scenario reuse: the block composed after the first answer \(\{context\} line \d+\) holds no stored copy of "fixture:changed"/);
    t.match(
      said,
      /scenario reuse, the first block \(\{context\} line \d+\): it renders "fixture:kept" \(cgpmark-re-01\), served at lines \d+, \d+ under one identity, as one content/,
    );
  });

  for (const [defect, check, code, says] of DEFECTS)
    t.test(`${transport}: with the defect ${defect}, exactly ${check} fails`, async (t) => {
      const { report, exitCode, stderr } = await judged(transport, provider, defect);
      t.equal(exitCode, 1, `not conformant, exit 1 (${stderr.slice(-300)})`);
      const s = statuses(report);
      t.same(
        Object.keys(s).filter((id) => s[id] === "fail"),
        [check],
        "only its check fails",
      );
      t.same(
        Object.keys(s).filter((id) => s[id] === "skip"),
        [],
        "none skips",
      );
      const failing = report.results.find((x) => x.id === check)!.evidence.filter((e) => e.status === "fail");
      t.ok(
        failing.some((e) => e.code === code),
        `a finding coded ${code}`,
        { found: failing.map((e) => e.code) },
      );
      t.match(failing.map((e) => e.message).join("\n"), says, "naming the scenario and the frames");
    });
}
