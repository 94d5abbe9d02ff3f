/**
 * A host run's scenarios run up to `jobs` at once, and the transcript holds each scenario's events together, in the
 * declared order, whichever ended first. Told by what the hosts saw, not by timing: each host marks its start in a
 * shared directory and waits (at most a second) until two have started, then prints how many it saw.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { runHost } from "../../src/host/run.ts";
import { SCENARIOS } from "../../src/protocol/host-scenarios.ts";
import { RUN_TMP } from "../helpers/live.ts";

const two = SCENARIOS.filter((s) => s.name === "lock-step" || s.name === "correlation");
// lock-step is declared first. Run beside correlation, its host ends only once correlation's host has marked its
// end, and a second and a half after that, so its scenario ends last: an order taken from the ends would put it second.
const script = `d="$1"; shift; : > "$d/$CGP_SCENARIO"; i=0
while [ "$(ls "$d" | wc -l)" -lt 2 ] && [ "$i" -lt 20 ]; do sleep 0.05; i=$((i + 1)); done
saw=$(ls "$d" | wc -l); echo "$CGP_SCENARIO saw $saw"
if [ "$CGP_SCENARIO" = correlation ]; then : > "$d/../correlation-ended"; fi
if [ "$CGP_SCENARIO" = lock-step ] && [ "$saw" -ge 2 ]; then
  i=0; while [ ! -e "$d/../correlation-ended" ] && [ "$i" -lt 100 ]; do sleep 0.05; i=$((i + 1)); done; sleep 1.5
fi`;

async function run(jobs: number) {
  const top = mkdtempSync(join(RUN_TMP, "jobs-"));
  const dir = join(top, "started");
  mkdirSync(dir);
  try {
    const transcript = await runHost({ command: ["sh", "-c", script, "sh", dir, "{provider}"], transport: "stdio", timeoutMs: 10_000, scenarios: two, jobs });
    const said = transcript.events.filter((e) => e.dir === "stdout").map((e) => e.line);
    return { transcript, said };
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
}

t.test("with --jobs 2 two scenarios' hosts are alive at once; the transcript keeps the declared order", async (t) => {
  const { transcript, said } = await run(2);
  t.same([...said].sort(), ["correlation saw 2", "lock-step saw 2"], "each host saw the other start");
  const order = transcript.events.map((e) => e.scenario).filter((s, i, all) => all.indexOf(s) === i);
  t.same(order, ["lock-step", "correlation"], "the scenarios' events are held in the declared order");
  const runs = transcript.events.map((e) => e.scenario).filter((s, i, all) => i === 0 || all[i - 1] !== s);
  t.same(runs, ["lock-step", "correlation"], "each scenario's events are together, not interleaved");
  t.same(
    transcript.events.map((e) => e.n),
    transcript.events.map((_, i) => i + 2),
    "events are numbered by their line in the transcript",
  );
});

t.test("with --jobs 1 the scenarios run one after another", async (t) => {
  const { said } = await run(1);
  t.same(said, ["lock-step saw 1", "correlation saw 2"], "the first host ran alone; the second found only the first's mark");
});
