/** `cgp-conform host --json` for the end-to-end host tests, its report parsed where it printed one. */
import type { RunReport } from "../../src/verdict/report.ts";
import { cli } from "./live.ts";

// The hosts here read with deadlines of a second or two (or none at all): the fault scenarios are bounded as the rest.
export async function hostRun(args: string[], command: string[]) {
  const r = await cli(["host", "--json", "--timeout", "5000", "--fault-timeout", "5000", ...args, "--", ...command]);
  let report: RunReport | undefined;
  try {
    report = JSON.parse(r.stdout) as RunReport;
  } catch {
    report = undefined;
  }
  return { ...r, report };
}
