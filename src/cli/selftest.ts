import { makeChalk } from "../report/color.ts";
import type { SelftestCase, SelftestReport } from "../engine/selftest-case.ts";

export function selftestLine(c: SelftestCase): string {
  const chalk = makeChalk();
  const tag = c.ok ? chalk.green("ok  ") : chalk.red.bold("BAD ");
  const want =
    [
      c.expectFail.length ? `fails ${c.expectFail.join(", ")}` : "",
      c.expectWarn.length ? `warns ${c.expectWarn.join(", ")}` : "",
      c.expectInfo?.length ? `informs ${c.expectInfo.join(", ")}` : "",
    ]
      .filter(Boolean)
      .join(", ") || "fails nothing";
  const problems = [
    c.missed.length ? `not caught by ${c.missed.join(", ")}` : "",
    c.extra.length ? `also failed ${c.extra.join(", ")}` : "",
    c.unpinned.length ? `${c.unpinned.join(", ")} failed for another reason than the defect` : "",
    c.unclean.length ? `not clean on ${c.unclean.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
  const line = `${tag} ${c.transport.padEnd(5)} ${c.name.padEnd(34)} ${want}${problems ? ` — ${problems}` : ""}`;
  return c.ok ? line : [line, ...seen(c)].join("\n");
}

/** How many of a BAD case's checks show what they saw. */
const SEEN_MAX = 3;

/** For a BAD case: what the checks in question saw, each its status and first finding of it, so the line says why. */
function seen(c: SelftestCase): string[] {
  const ids = [...new Set([...c.missed, ...c.extra, ...c.unpinned, ...c.unclean])];
  return ids.slice(0, SEEN_MAX).map((id) => {
    const r = c.results.find((x) => x.id === id);
    if (!r) return `       ${id}: no result`;
    const first = r.evidence.find((e) => e.status === r.status) ?? r.evidence[0];
    const said = first?.message ?? r.reason ?? "";
    return `       ${id} ${r.status}: ${said.length > 240 ? `${said.slice(0, 240)}…` : said}`;
  });
}

export function selftestSummary(r: SelftestReport): string {
  const bad = r.cases.filter((c) => !c.ok).length;
  return `selftest: ${r.checks} checks, ${r.modes} misbehave modes, ${r.host_checks} host checks, ${r.host_modes} host modes, ${r.cases.length} cases: ${r.cases.length - bad} passed, ${bad} failed\n`;
}
