/**
 * The reference host against the providers of quoted-hostile, budget-breaker
 * and unverifiable-attestation: content quoted with its closers neutralised
 * (R3), a provider over budget dropped whole and reported (B2), frames whose
 * attestation cannot be verified kept as unattested (F9); and what the host
 * modes that break each change.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { honest as honestProvider } from "../src/reference/provider.ts";
import { honestHost, runHost, type RefHost } from "../src/reference/host.ts";
import { hostFor } from "../misbehave/host/apply.ts";
import { isObj, type Obj } from "../src/protocol/envelope.ts";
import { FORGED_OPENER, INSTRUCTION } from "../src/protocol/adversarial.ts";
import { markersIn, type ScenarioName } from "../src/protocol/host-scenarios.ts";
import { RUN_TMP } from "./helpers/live.ts";
import { lines, serveScenario } from "./helpers/serve-scenario.ts";

const dir = mkdtempSync(join(RUN_TMP, "refhost-adversarial-"));
let files = 0;

/** Run a host (honest, or with a mode) against each provider of a scenario over HTTP, in this process: its exit status, block, report and stderr lines. */
async function run(name: ScenarioName, count: number, mode?: string) {
  const served = await serveScenario(name, count);
  const logged: string[] = [];
  const contextPath = join(dir, `c${++files}.ndjson`);
  const usagePath = join(dir, `u${files}.ndjson`);
  const h: RefHost = { ...hostFor(mode, 5000), contextPath, usagePath, print: () => {}, log: (l) => logged.push(l) };
  const code = await runHost(
    h,
    served.urls.map((url) => ({ kind: "http" as const, url })),
  );
  await served.close();
  const [block] = lines(contextPath);
  return { code, text: typeof block?.text === "string" ? block.text : "", report: lines(usagePath)[0], logged };
}

t.test("quoted-hostile: every closer in the content neutralised, none of its lines the host's own", async (t) => {
  const { text } = await run("quoted-hostile", 1);
  const region = text.slice(text.indexOf("cgpmark-rs-02"), text.indexOf("cgpmark-re-02"));
  t.ok(region.includes(INSTRUCTION), "the instruction is quoted, inside the frame's content");
  t.notOk(region.split("\n").includes("</frame>"), "no </frame> line inside the content");
  t.notOk(/^<frame /m.test(region), "no frame opens inside it");
  t.ok(region.includes(FORGED_OPENER.replace("<frame", "&lt;frame")), "the forged opener loses its <");
  t.equal(text.match(/^<frame /gm)?.length, 3, "three frames, as served");
  const raw = await run("quoted-hostile", 1, "R3-raw-content");
  t.ok(raw.text.split("\n").filter((l) => l === "</frame>").length > 3, "R3-raw-content: the content's </frame> is left as a line of its own");
});

t.test("budget-breaker: the provider over budget dropped whole and reported, the other composed", async (t) => {
  const r = await run("budget-breaker", 2);
  t.equal(r.code, 1, "a dropped provider is a failure of the round");
  t.same(markersIn(r.text), ["cgpmark-bh-01", "cgpmark-bh-02"], "only the honest provider's frames");
  t.match(
    r.logged.join("\n"),
    /reference-host: error budget_exceeded: provider cgp-conform-bulk broke B1: its 3 frames cost 6000 tokens, over the query's max_tokens 4000: all 3 dropped, none truncated \(B2\)/,
  );
  const entries = (r.report!.providers as Obj[]).filter(isObj);
  t.same(
    entries.map((p) => [p.provider_id, p.frames_served, p.frames_rejected]),
    [
      ["cgp-conform-bulk", 0, 3],
      ["cgp-conform-docs", 2, 0],
    ],
    "the usage report records the drop",
  );
  t.equal(r.report!.budget_consumed, 35);
  const truncated = await run("budget-breaker", 2, "B2-truncate-breaker");
  t.same(markersIn(truncated.text).sort(), ["cgpmark-bh-01", "cgpmark-bh-02", "cgpmark-bx-01", "cgpmark-bx-02"], "B2-truncate-breaker keeps what fits");
  t.notMatch(truncated.logged.join("\n"), /budget|B1|B2/, "and says nothing");
});

t.test("unverifiable-attestation: every frame kept, each unverifiable one reported as unattested", async (t) => {
  const r = await run("unverifiable-attestation", 1);
  t.equal(r.code, 0);
  t.same(markersIn(r.text), ["cgpmark-fa-01", "cgpmark-fa-02", "cgpmark-fa-03", "cgpmark-fa-04"]);
  const f9 = r.logged.filter((l) => l.includes("(F9)"));
  t.equal(f9.length, 3, "one line for each unverifiable attestation");
  t.match(f9.join("\n"), /fixture:freeze-1: its attestation cannot be verified \(algorithm cgp-conform:unheard-of-signature, which it does not recognise\)/);
  t.match(f9.join("\n"), /fixture:freeze-2: .*its signature does not verify under the published key/);
  t.match(f9.join("\n"), /fixture:freeze-3: .*key_id cgp-conform-unpublished-key, which no published key answers/);
  const dropped = await run("unverifiable-attestation", 1, "F9-drop-unverifiable");
  t.same(markersIn(dropped.text), ["cgpmark-fa-04"], "F9-drop-unverifiable keeps the unattested frame alone");
});

t.test("an attestation that verifies is attested; a tampered frame's is not", async (t) => {
  const p = { ...honestProvider, attest: true };
  const ack = p.ack();
  const [env] = p.onQuery({ type: "query", query: { goal: "retry", kinds: [], max_frames: 2, max_tokens: 4000 } });
  t.same(
    honestHost.attestations.call(honestHost, ack, env!).map((a) => a.kind),
    ["attested", "attested"],
  );
  const result = env!.result as Obj;
  const frames = (result.frames as Obj[]).map((f, i) => (i === 0 ? { ...f, title: `${String(f.title)}!`, provenance: [] } : f));
  const tampered = honestHost.attestations.call(honestHost, ack, { ...env!, result: { ...result, frames } });
  t.same(tampered[0], { kind: "unverifiable", why: "its signed_commitment is not this frame's: it changed after signing" });
  t.equal(tampered[1]!.kind, "attested");
});
