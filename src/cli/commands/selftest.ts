import { availableParallelism } from "node:os";
import { DEFAULTS } from "../../engine/defaults.ts";
import { reportForJson, type Transport } from "../../engine/selftest-case.ts";
import { exitCode } from "../../verdict/exit.ts";
import { out, positive, UsageError } from "../io.ts";
import { defineCommand } from "./define.ts";

/** --shard I/N: 1 ≤ I ≤ N. */
export function parseShard(text: string): { index: number; of: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(m?.[1]);
  const of = Number(m?.[2]);
  if (!m || index < 1 || of < 1 || index > of) throw new UsageError(`--shard must be I/N with 1 ≤ I ≤ N, e.g. 2/3; got ${JSON.stringify(text)}`);
  return { index, of };
}

export default defineCommand({
  command: "selftest",
  describe: "Prove the suite: the honest provider passes, every misbehave mode fails exactly its checks",
  options: (y) =>
    y
      .option("json", { type: "boolean", default: false, describe: "Write the selftest result as JSON to stdout" })
      .option("timeout", { type: "number", default: DEFAULTS.timeoutMs, describe: "Per-exchange read deadline in ms" })
      .option("transport", {
        choices: ["stdio", "http", "https"] as const,
        array: true,
        describe: "Transports to prove the suite over (default: all three; https runs the honest provider)",
      })
      .option("jobs", {
        type: "number",
        describe: "Processes to run the cases in at once (default: one per CPU, at most 4, and one for the host cases run as processes)",
      })
      .option("shard", {
        type: "string",
        describe:
          "Run only one shard of the cases, I/N: what --jobs starts (with N ≥ 2 the last runs the host cases whose reference host is a process; the others share the rest)",
      }),
  async run(a, { noProvider }) {
    noProvider("selftest");
    const transports = (a.transport ?? ["stdio", "http", "https"]) as Transport[];
    const [{ selftest }, { selftestLine, selftestSummary }] = await Promise.all([import("../../engine/selftest.ts"), import("../selftest.ts")]);
    const shard = a.shard === undefined ? undefined : parseShard(a.shard);
    // One shard per CPU (at most 4) for the cases that keep a thread busy, and one more for the host cases run as
    // processes, which mostly wait on their hosts' deadlines.
    const jobs = a.jobs === undefined ? Math.min(4, availableParallelism()) + 1 : positive("jobs", a.jobs);
    const r = await selftest({
      timeoutMs: positive("timeout", a.timeout),
      transports,
      jobs,
      ...(shard ? { shard } : {}),
      onCase: a.json ? undefined : (c) => out(selftestLine(c) + "\n"),
    });
    out(a.json ? JSON.stringify(reportForJson(r), null, 2) + "\n" : selftestSummary(r));
    return exitCode(r.ok ? "selftest-exact" : "selftest-inexact");
  },
});
