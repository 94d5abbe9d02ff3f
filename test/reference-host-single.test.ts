/**
 * The bundled reference host given one provider ({provider} alone): the
 * scenarios of several providers do not run, and the composition modes are
 * still caught by exactly their checks, on the scenarios of one provider
 * (compose-one and its twins, budget-breaker-one) and on reuse; honest, it
 * passes them.
 */
import t from "tap";
import { CGP } from "./helpers/live.ts";
import { hostRun } from "./helpers/host-run.ts";

const CHECKS = "B2,CR1-order,CR1-render,D2,D3,V2,V3,V4";
const referenceHost = (...rest: string[]): string[] => [...CGP, "reference-host", "--timeout", "1000", ...rest, "--", "{provider}"];

/** Each mode, the check it must fail, and the finding, in a scenario of one provider. */
const MODES = [
  ["CR1-arrival-order", "host:CR1-order", "host:CR1-order.follows-arrival", /^scenarios compose-one \(line \d+\) and compose-one-reordered/],
  ["CR1-render-score", "host:CR1-render", "host:CR1-render.score-rendered", /^scenarios compose-one \(line \d+\) and compose-one-rescored/],
  ["B2-truncate-breaker", "host:B2", "host:B2.truncated", /^scenario budget-breaker-one, line \d+: the block composes 2 of the 3 frames of cgp-conform-lumpy/],
  ["V4-keep-stale-copies", "host:V4", "host:V4.stored-copy", /^scenario reuse, the second block/],
] as const;

t.test("honest, given one provider: every composition check judged on the scenarios of one provider, and passed", async (t) => {
  const r = await hostRun(["--only", CHECKS], referenceHost());
  t.equal(r.exitCode, 0, r.stderr.slice(-500));
  t.same(
    r.report!.results.filter((x) => x.status !== "pass").map((x) => `${x.id} ${x.status}`),
    [],
    "none skipped, none failed",
  );
  const said = r.report!.results.flatMap((x) => x.evidence.map((e) => e.message));
  t.notOk(
    said.some((m) => /scenarios? (compose|compose-reordered|compose-rescored|budget-breaker|three-providers)\b(?!-)/.test(m)),
    "no scenario of several providers ran",
  );
});

for (const [mode, check, code, says] of MODES)
  t.test(`${mode}, given one provider: exactly ${check} fails, in a scenario of one provider`, async (t) => {
    const r = await hostRun(["--only", CHECKS], referenceHost("--misbehave", mode));
    t.equal(r.exitCode, 1, r.stderr.slice(-500));
    t.same(
      r.report!.results.filter((x) => x.status === "fail").map((x) => x.id),
      [check],
    );
    const failing = r.report!.results.find((x) => x.id === check)!.evidence.filter((e) => e.status === "fail");
    t.ok(
      failing.some((e) => e.code === code && says.test(e.message)),
      `${code}, in the words of a scenario of one provider`,
      { found: failing.map((e) => e.message.slice(0, 160)) },
    );
  });
