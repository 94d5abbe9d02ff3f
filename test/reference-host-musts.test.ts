/**
 * The reference host against unknown-vocabulary (U2: the kind shown as
 * served), honest and with the mode that breaks it.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { honestHost, runHost, type RefHost } from "../src/reference/host.ts";
import { hostFor } from "../misbehave/host/apply.ts";
import { UNKNOWN_KIND } from "../src/protocol/host-scenarios.ts";
import { RUN_TMP } from "./helpers/live.ts";
import { lines, serveScenario } from "./helpers/serve-scenario.ts";

const dir = mkdtempSync(join(RUN_TMP, "refhost-musts-"));
let files = 0;
const paths = () => ({ contextPath: join(dir, `c${++files}.ndjson`), usagePath: join(dir, `u${files}.ndjson`) });

/** Run a host once against the one provider of a scenario, over HTTP in this process: its exit status, blocks, reports and stderr. */
async function runOn(name: "unknown-vocabulary", h: RefHost = honestHost) {
  const s = await serveScenario(name, 1);
  const p = paths();
  const err: string[] = [];
  const code = await runHost({ ...h, timeoutMs: 5000, ...p, print: () => {}, log: (l) => void err.push(l) }, { kind: "http", url: s.urls[0]! });
  await s.close();
  return { code, blocks: lines(p.contextPath).map((b) => String(b.text)), reports: lines(p.usagePath), err };
}

t.test("the kind shown as served, an unknown one too; U2-rewrite-unknown-kind shows it as doc", async (t) => {
  const honest = await runOn("unknown-vocabulary");
  t.equal(honest.code, 0, honest.err.join("\n"));
  t.match(honest.blocks[0]!, new RegExp(`kind="${UNKNOWN_KIND}"[^\\n]*>\\n[^\\n]*cgpmark-fx-01`), "the unknown kind beside its frame");
  t.match(honest.blocks[0]!, /kind="snippet"/);
  const bad = await runOn("unknown-vocabulary", hostFor("U2-rewrite-unknown-kind"));
  t.equal(bad.code, 0);
  t.notMatch(bad.blocks[0]!, new RegExp(UNKNOWN_KIND));
  t.match(bad.blocks[0]!, /kind="doc"[^\n]*>\n[^\n]*cgpmark-fx-01/);
  t.equal(bad.blocks[0], honest.blocks[0]!.replace(`kind="${UNKNOWN_KIND}"`, 'kind="doc"'), "and nothing else changes");
});
