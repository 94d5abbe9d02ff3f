/**
 * What a host must do for each host check to judge it, generated from the
 * declarations: how many providers it must name, from the scenarios' own
 * (ScenarioSpec.providers), and the files it must write and the work it must
 * do, from the check's `needs` (checks/kit/host.ts).
 */
import type { HostCheckDef } from "../../checks/kit/host.ts";
import { PLACEHOLDERS } from "../protocol/host-scenarios.ts";

/** The providers a host must name for the check to judge it, in words: one is enough where a scenario of one provider is among its own. */
export function providersNeeded(c: HostCheckDef): string {
  const count = (n: number | undefined): number => n ?? 1;
  const least = Math.min(...c.scenarios.map((s) => count(s.providers)));
  const multi = c.scenarios.filter((s) => count(s.providers) > 1);
  const most = Math.max(...c.scenarios.map((s) => count(s.providers)));
  const further = most >= 3 ? `${PLACEHOLDERS.provider2} and ${PLACEHOLDERS.provider3}` : PLACEHOLDERS.provider2;
  const names = multi.length <= 4 ? multi.map((s) => s.name).join(", ") : `its ${multi.length} scenarios of several providers`;
  const words =
    least > 1
      ? `several: ${further} (${names})`
      : multi.length === 0
        ? `one: ${PLACEHOLDERS.provider}${c.scenarios.filter((s) => s.name !== "lock-step").every((s) => s.only === "stdio") && c.scenarios.length > 1 ? "" : ` (or ${PLACEHOLDERS.url})`}`
        : `one: ${PLACEHOLDERS.provider} (or ${PLACEHOLDERS.url}); with ${further} also ${names}`;
  return words + servedWords(c);
}

/** Where the check's own scenarios (lock-step, a control, aside) are served only over one transport, or only on the --listen address: how to run the host. */
function servedWords(c: HostCheckDef): string {
  const own = c.scenarios.filter((s) => s.name !== "lock-step");
  if (own.length === 0) return "";
  if (own.every((s) => s.listen !== undefined)) return `, over HTTP (${PLACEHOLDERS.url}) on the \`--listen ADDR\` address`;
  if (own.every((s) => s.only === "http")) return `, over HTTP (${PLACEHOLDERS.url})`;
  if (own.every((s) => s.only === "stdio")) return ", over stdio only";
  return "";
}

/** The files a host must write for the check, in words. */
export function writesNeeded(c: HostCheckDef): string {
  const w = c.needs?.writes ?? [];
  return w.length === 0 ? "nothing" : w.map((x) => PLACEHOLDERS[x]).join(", ");
}

/** The work beyond one query and one block, in words. */
export function workNeeded(c: HostCheckDef): string {
  return c.needs?.work ?? "one query (and, where it writes one, one block)";
}

/** One line of a check's details: everything above. */
export function needsLine(c: HostCheckDef): string {
  return `Needs from the host: providers, ${providersNeeded(c)}; writes, ${writesNeeded(c)}; work, ${workNeeded(c)}.`;
}
