import t from "tap";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHECKS } from "../../checks/index.ts";
import { score } from "../../src/engine/score.ts";
import { fromNdjson } from "../../src/transcript/file.ts";
import { freezeParses } from "../../src/transcript/view.ts";
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
