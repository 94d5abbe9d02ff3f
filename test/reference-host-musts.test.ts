/**
 * The reference host against reuse-without-verify (context-reuse §4: a
 * provider without verify is queried again, nothing it served reused
 * unchecked) and unknown-vocabulary (U2: the kind shown as served), honest
 * and with the modes that break each; and the turn boundary that takes a
 * second turn where a held frame outlived its stated validity.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { honestHost, runHost, type RefHost, type Round } from "../src/reference/host.ts";
import { hostFor } from "../misbehave/host/apply.ts";
import { markersIn, UNKNOWN_KIND } from "../src/protocol/host-scenarios.ts";
import { RUN_TMP } from "./helpers/live.ts";
import { lines, serveScenario } from "./helpers/serve-scenario.ts";

const dir = mkdtempSync(join(RUN_TMP, "refhost-musts-"));
let files = 0;
const paths = () => ({ contextPath: join(dir, `c${++files}.ndjson`), usagePath: join(dir, `u${files}.ndjson`) });

/** Run a host once against the one provider of a scenario, over HTTP in this process: its exit status, blocks, reports and stderr. */
async function runOn(name: "reuse-without-verify" | "unknown-vocabulary" | "lock-step", h: RefHost = honestHost) {
  const s = await serveScenario(name, 1);
  const p = paths();
  const err: string[] = [];
  const code = await runHost({ ...h, timeoutMs: 5000, ...p, print: () => {}, log: (l) => void err.push(l) }, { kind: "http", url: s.urls[0]! });
  await s.close();
  return { code, blocks: lines(p.contextPath).map((b) => String(b.text)), reports: lines(p.usagePath), err };
}

t.test("a provider without verify whose frames outlived their validity: queried again, nothing reused", async (t) => {
  const r = await runOn("reuse-without-verify");
  t.equal(r.code, 0, r.err.join("\n"));
  t.equal(r.blocks.length, 2, "a block a turn");
  t.same(markersIn(r.blocks[0]!).sort(), ["cgpmark-rq-01", "cgpmark-rq-02", "cgpmark-rq-03", "cgpmark-rq-04"]);
  t.same(markersIn(r.blocks[1]!).sort(), ["cgpmark-rq-01", "cgpmark-rq-12", "cgpmark-rq-14"], "only what the query again served");
  t.equal(r.reports.length, 2, "a usage report for each query");
  t.match(r.err.join("\n"), /not reusing 4 held frames: fixture:kept \(no verify declared\), fixture:changed \(no verify declared\)/);
});

t.test("CR4-reuse-unchecked keeps every stored copy beside the query again", async (t) => {
  const r = await runOn("reuse-without-verify", hostFor("CR4-reuse-unchecked"));
  t.equal(r.code, 0, r.err.join("\n"));
  t.same(
    markersIn(r.blocks[1]!).sort(),
    ["cgpmark-rq-01", "cgpmark-rq-02", "cgpmark-rq-03", "cgpmark-rq-04", "cgpmark-rq-12", "cgpmark-rq-14"],
    "the stale and gone copies beside the fresh ones",
  );
  const h = hostFor("CR4-reuse-unchecked");
  const ack = { capabilities: {} };
  t.ok(h.reuses({ id: "x", content_digest: "sha256:0" }, undefined, ack), "it reuses what a provider without verify served");
  t.notOk(
    h.reuses({ id: "x", content_digest: "sha256:0" }, undefined, { capabilities: { verify: true } }),
    "but a silence after a verify is still no validity",
  );
});

t.test("V2-silence-as-valid takes silence after a verify as valid, not the silence of a provider without verify", async (t) => {
  const h = hostFor("V2-silence-as-valid");
  const frame = { id: "x", content_digest: "sha256:0" };
  t.ok(h.reuses(frame, undefined, { capabilities: { verify: true } }));
  t.notOk(h.reuses(frame, undefined, { capabilities: {} }));
  const r = await runOn("reuse-without-verify", h);
  t.same(
    markersIn(r.blocks[1]!).sort(),
    ["cgpmark-rq-01", "cgpmark-rq-12", "cgpmark-rq-14"],
    "it queries a provider without verify again as the honest host does",
  );
});

t.test("the turn boundary: a frame whose valid_to came while it was held calls for a second turn; one already past, or still to come, does not", async (t) => {
  const now = Date.parse("2026-12-04T12:00:00Z");
  const round = (valid_to: string | undefined, askedAt = now - 1000): Round => ({
    queried: true,
    rejected: 0,
    askedAt,
    frames: [{ id: "f", ...(valid_to ? { valid_to } : {}) }],
  });
  const outlived = (r: Round) => honestHost.outlived.call(honestHost, r, now);
  t.ok(outlived(round("2026-12-04T11:59:59.500Z")), "it ended between the query and now");
  t.ok(outlived(round("2026-12-04T12:00:00.000Z")), "it ends now");
  t.notOk(outlived(round("2026-12-04T11:00:00Z")), "it had ended before the query was sent");
  t.notOk(outlived(round("2027-01-01T00:00:00Z")), "it ends later");
  t.notOk(outlived(round(undefined)), "no valid_to");
  t.notOk(outlived(round("not a time")), "a valid_to that does not parse");
  const lockStep = await runOn("lock-step");
  t.equal(lockStep.blocks.length, 1, "lock-step's frames, one valid until 2027, call for no second turn");
});

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
