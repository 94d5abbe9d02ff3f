/**
 * A complete host written apart from the bundled one (test/fakes/host-composer.mjs:
 * plain Node, nothing imported from this repository), with two planted
 * composition defects, is judged by every host check on both transports, given
 * every placeholder: nothing goes unobserved, and each finding shows its
 * defect: two frames in a natural rather than code-point order (a deterministic
 * order of the host's own, which protocol-surface §7 permits where context-reuse
 * §1 asks for canonical order: a warning, docs/readings.md rule 5), and a score
 * written where the rescored block parts from compose's (the one failure),
 * each seen in the scenarios of several providers and in those of one.
 */
import t from "tap";
import { cli, fake } from "./helpers/live.ts";
import type { RunReport } from "../src/verdict/report.ts";

const files = ["--context={context}", "--usage={usage}"];
const TRANSPORTS = [
  ["stdio", [...files, "--provider={provider}", "--provider={provider2}", "--provider={provider3}"]],
  ["http", [...files, "--url={url}", "--url={url2}", "--url={url3}"]],
] as const;
/** What cannot run here: C4 and C7 want `--listen` (a network namespace); C8 binds a token used over HTTP. */
/** What skips: what needs --listen (or a token), and over HTTP what a provider cannot do there (send an envelope unasked). */
const SKIPPED = { stdio: ["host:C4", "host:C7", "host:C8"], http: ["host:C4", "host:C7", "host:S2-unknown-type"] };

async function judged(args: readonly string[]) {
  const started = Date.now();
  const r = await cli(["host", "--json", "--", ...fake("host-composer"), ...args]);
  return { ...r, ms: Date.now() - started, report: JSON.parse(r.stdout) as RunReport };
}

t.test("a host written apart, with two composition defects, is judged on each, on stdio and on HTTP", async (t) => {
  const started = Date.now();
  const runs = await Promise.all(TRANSPORTS.map(([, args]) => judged(args)));
  t.comment(`both runs took ${Date.now() - started} ms together (${runs.map((r) => `${r.ms} ms`).join(", ")})`);
  for (const [i, [transport]] of TRANSPORTS.entries()) {
    const { report, exitCode, stderr } = runs[i]!;
    const ids = (status: string) =>
      report.results
        .filter((x) => x.status === status)
        .map((x) => x.id)
        .sort();
    t.equal(exitCode, 1, `${transport}: not conformant, exit 1 (${stderr.slice(-300)})`);
    t.same(ids("fail"), ["host:CR1-render"], `${transport}: the score in the bytes fails`);
    t.equal(report.summary.unobserved, 0, `${transport}: no check goes unobserved`);
    t.same(ids("skip"), SKIPPED[transport], `${transport}: only what needs --listen (or a token), or stdio, skips`);
    t.same(
      report.results.filter((x) => !["pass", "fail", "skip"].includes(x.status)).map((x) => `${x.id} ${x.status}`),
      ["host:CR1-order warn"],
      `${transport}: the natural order warns, and every other check passes without a warning`,
    );

    const warned = report.results.find((x) => x.id === "host:CR1-order")!.evidence.filter((e) => e.status === "warn");
    // One defect, one finding: the six alike (one per composition scenario, of several providers and of one) are folded into the first.
    t.equal(warned.length, 1, `${transport}: one finding for the one defect`);
    t.equal(warned[0]?.occurrences, 6, `${transport}: seen in each composition scenario, of several providers and of one`);
    t.match(warned[0]?.message, /^scenario compose, line \d+: .*\(the first of 6 like it\)$/s, `${transport}: folded into the first`);
    t.same(
      (warned[0]?.also ?? []).map((m) => /^scenario ([\w-]+)/.exec(m)?.[1]),
      ["compose-reordered", "compose-rescored", "compose-one"],
      `${transport}: the next ones named`,
    );
    t.match(
      warned[0]?.also?.[2],
      /"fixture:alpha" of cgp-conform-solo before "fixture:Beta" \(no content_digest\) of cgp-conform-solo/,
      `${transport}: one provider's case-blind pair`,
    );
    const order = warned;
    for (const e of order) {
      t.match(
        e.message,
        /emits "fixture:alpha" of cgp-conform-code before "fixture:Beta" \(no content_digest\) of cgp-conform-code/,
        `${transport}: a case-blind pair`,
      );
      t.match(e.message, /frame ids compare by code point, as bytes, not as words or numbers/, `${transport}: naming the rule broken`);
      t.match(e.message, /"fixture:doc-9" of cgp-conform-wiki before "fixture:doc-10" of cgp-conform-wiki/, `${transport}: and a numeric pair`);
      t.not(e.actual, e.expected, `${transport}: expected and actual orders differ`);
    }

    const render = report.results.find((x) => x.id === "host:CR1-render")!.evidence.filter((e) => e.status === "fail");
    t.equal(render.length, 2, `${transport}: one finding per kind: compose's block against compose-rescored's, compose-one's against compose-one-rescored's`);
    const scores = [...(render[0]?.message ?? "").matchAll(/score=\\"(\d\.\d+)\\"/g)].map((m) => m[1]);
    t.equal(scores.length, 2, `${transport}: the finding quotes each block where they part, at a score`);
    t.not(scores[0], scores[1], `${transport}: two scores for the same frame`);
    t.match(
      render[0]?.message,
      /where a score \("0\.\d+"\) is written; compose-reordered's block \(line \d+\) is compose's byte for byte/,
      `${transport}: and puts the difference down to it`,
    );
  }
});
