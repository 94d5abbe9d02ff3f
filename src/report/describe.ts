import { counted } from "../verdict/words.ts";
import type { RunReport } from "../verdict/report.ts";

/** How every report names its target: never with a secret in it (the target record holds none). */
export function targetOf(t: RunReport["target"]): string {
  return t.kind === "http" ? t.url : t.command.join(" ");
}

/** The target as the first line of a report names it: a provider run in this process is not said to be spawned. */
export function targetLine(t: RunReport["target"]): string {
  if (t.kind === "stdio" && "in_process" in t && t.in_process) return `stdio, run in this process (--spawn starts it as ${targetOf(t)})`;
  return `${t.kind}: ${targetOf(t)}`;
}

/** The protocol version cgp-conform spoke in the run: as the host (a provider run), or as the scenario providers (a host run). */
export function protocolOf(r: RunReport): string {
  return `${r.target.kind === "host" ? "providers" : "host"} ${r.host_version}`;
}

/** The gating policy the report records (--strict, --only/--skip, --baseline), in one line; the verdict stays the report's. */
export function policyOf(r: RunReport): string | undefined {
  const p = r.policy;
  if (!p) return undefined;
  const parts: string[] = [];
  if (p.strict) parts.push("--strict (a SHOULD shortfall fails)");
  if (p.only?.length) parts.push(`--only ${p.only.join(",")}`);
  if (p.skip?.length) parts.push(`--skip ${p.skip.join(",")}`);
  const b = p.baseline;
  if (b) {
    const more = [
      b.still_failing.length ? `failing as expected: ${b.still_failing.join(", ")}` : "",
      b.unexpected.length ? `unexpected failures: ${b.unexpected.join(", ")}` : "",
      b.fixed.length ? `fixed, to take out of the baseline: ${b.fixed.join(", ")}` : "",
      b.not_failing?.length ? `not failing, not passing (warn or info): ${b.not_failing.join(", ")}` : "",
    ].filter(Boolean);
    parts.push(`baseline of ${counted(b.expected_fail.length, "expected failure")} ${b.ok ? "met" : "NOT met"}${more.length ? ` (${more.join("; ")})` : ""}`);
  }
  return parts.length ? parts.join("; ") : undefined;
}
