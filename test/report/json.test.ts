import t from "tap";
import { reportValidator } from "../../src/schema/compile.ts";

const validate = reportValidator();
import { runSuite } from "../../src/engine/run.ts";
import { fixture } from "../helpers/live.ts";

for (const mode of [undefined, "B3-utf16-length", "R1-crash-on-garbage"]) {
  t.test(`report of ${mode ?? "the honest provider"} validates against report.schema.json`, async (t) => {
    const { report } = await runSuite({ kind: "stdio", command: fixture(mode) }, { timeoutMs: 20000 });
    const json: unknown = JSON.parse(JSON.stringify(report));
    t.ok(validate(json), JSON.stringify(validate.errors));
    t.equal(report.conformant, mode === undefined);
  });
}

t.test("the schema rejects a report that breaks its shape", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: fixture("F2-empty-title") }, { timeoutMs: 20000 });
  const broken = JSON.parse(JSON.stringify(report));
  broken.results[0].status = "maybe";
  t.notOk(validate(broken));
  const skipWithoutReason = JSON.parse(JSON.stringify(report));
  Object.assign(skipWithoutReason.results[0], { status: "skip", evidence: [] });
  delete skipWithoutReason.results[0].reason;
  t.notOk(validate(skipWithoutReason), "a skip must say why");
  const judged = JSON.parse(JSON.stringify(report));
  const e = judged.results.find((r: { evidence: unknown[] }) => r.evidence.length > 0).evidence[0];
  t.ok(validate(judged), "every evidence item as made carries its code and params");
  for (const member of ["code", "params"]) {
    const without = JSON.parse(JSON.stringify(judged));
    delete without.results.find((r: { evidence: unknown[] }) => r.evidence.length > 0).evidence[0][member];
    t.notOk(validate(without), `an evidence item without ${member} is no report's (${e.code})`);
  }
});
