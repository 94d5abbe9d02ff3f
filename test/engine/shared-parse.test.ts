import t from "tap";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHECKS } from "../../checks/index.ts";
import { score } from "../../src/engine/score.ts";
import { fromNdjson } from "../../src/transcript/file.ts";
import { envelopeOf, freezeParses } from "../../src/transcript/view.ts";
import { cli } from "../helpers/live.ts";
import { LIVE_TIMEOUT } from "../helpers/reports.ts";

// Every line is parsed once and the parse is shared by every check and view: a check that wrote to an
// envelope would change what the next one reads. Scored with every parse frozen, a transcript must give
// exactly the verdicts it gives unfrozen (a write to a frozen object throws, and the throw is a verdict).
const dir = mkdtempSync(join(tmpdir(), "cgp-shared-parse-"));
const RUNS: Record<string, string[]> = {
  honest: ["reference"],
  "signed-root": ["reference", "--variant", "signed-root"],
  "F12-arrival-order": ["reference", "--misbehave", "F12-arrival-order"],
  "B3-utf16-length": ["reference", "--misbehave", "B3-utf16-length"],
  "V4-body-in-verdict": ["reference", "--misbehave", "V4-body-in-verdict"],
};

for (const [name, args] of Object.entries(RUNS)) {
  t.test(`${name}: no check writes to a shared parse`, async (t) => {
    const file = join(dir, `${name}.ndjson`);
    await cli([...args, ...LIVE_TIMEOUT, "--json", "--transcript", file]);
    const text = readFileSync(file, "utf8");
    const plain = score(fromNdjson(text), CHECKS);
    freezeParses(true);
    try {
      const frozen = score(fromNdjson(text), CHECKS);
      t.same(frozen, plain);
      t.notOk(
        frozen.some((r) => r.evidence.some((e) => /could not score/.test(e.message))),
        "no check threw",
      );
    } finally {
      freezeParses(false);
    }
  });
}

// A live run hands the checks the parse each line got as it arrived: a probe that wrote to the envelope it read would
// change what the checks score. Frozen from arrival, the run must still complete, and score exactly as its replay does.
for (const mode of [undefined, "F12-arrival-order", "B3-utf16-length"]) {
  t.test(`${mode ?? "honest"}, live in process: no probe writes to the parse it shares with the checks`, async (t) => {
    const { runSuite } = await import("../../src/engine/run.ts");
    const { inProcessFixture } = await import("../../misbehave/apply.ts");
    const { fixtureCommand } = await import("../../src/engine/fixture-process.ts");
    const { toNdjson } = await import("../../src/transcript/file.ts");
    const root = mkdtempSync(join(tmpdir(), "cgp-shared-parse-root-"));
    freezeParses(true);
    let live;
    try {
      live = await runSuite(
        { kind: "stdio", command: fixtureCommand(mode, root), inProcess: inProcessFixture(mode, root, true) },
        { timeoutMs: 20_000, grants: ["all"], trustRoots: [root] },
      );
    } finally {
      freezeParses(false);
    }
    const ack = live.transcript.events.find((e) => e.dir === "recv")!;
    t.ok(Object.isFrozen(envelopeOf(ack)), "the checks read the parse made as the line arrived (frozen then)");
    const replayed = score(fromNdjson(toNdjson(live.transcript)), CHECKS);
    t.same(
      live.report.results.map((r) => [r.id, r.status, r.evidence]),
      replayed.map((r) => [r.id, r.status, r.evidence]),
    );
    t.notOk(
      replayed.some((r) => r.evidence.some((e) => /could not score/.test(e.message))),
      "no check threw",
    );
  });
}
