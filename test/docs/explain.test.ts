import t from "tap";
import { HOST_CHECKS } from "../../checks/host/index.ts";
import { SCENARIOS } from "../../src/protocol/host-scenarios.ts";
import { EXCLUDED } from "../../checks/excluded.ts";
import { CHECKS } from "../../checks/index.ts";
import { SCORING } from "../../src/docs/scoring.generated.ts";
import { MODES } from "../../misbehave/index.ts";
import { explain } from "../../src/docs/explain.ts";

t.test("every registered check explains with its requirement, probes, scoring and a witness", async (t) => {
  for (const c of CHECKS) {
    const text = explain(c.id);
    if (!t.ok(text, `${c.id} explains`) || !text) continue;
    t.ok(text.startsWith(`${c.id} (${c.level}): ${c.title}\n`), `${c.id} heading`);
    t.ok(text.includes(c.requirement), `${c.id} quotes its requirement`);
    for (const p of c.probes) {
      t.ok(text.includes(`  ${p.name}`) && text.includes(p.summary), `${c.id} names probe ${p.name} and what it sends`);
    }
    // How it is scored is the check's own account (its module's doc comment), not boilerplate shared by all.
    t.ok(SCORING[c.id] && SCORING[c.id]!.length > 40, `${c.id} has its own scoring note`);
    t.ok(text.replace(/\n +/g, " ").includes(SCORING[c.id]!), `${c.id} explains how it is scored, in its own words`);
    t.match(text, new RegExp(`Levels\\n {2}${c.level}: `), `${c.id} levels`);
    // The note is the check's account of what it reads: it names every probe the check declares (or says it reads every probe).
    if (!/every probe\b/.test(SCORING[c.id]!))
      for (const p of c.probes) t.ok(SCORING[c.id]!.includes(p.name), `${c.id}'s note names probe ${p.name}, which it reads`);
    // A check of level SHOULD or NONE can only warn: its witnesses are the modes that must make it warn.
    const ws = MODES.filter((m) => m.expectFail.includes(c.id) || ((c.level === "NONE" || c.level === "SHOULD") && (m.expectWarn ?? []).includes(c.id)));
    t.ok(ws.length > 0, `${c.id} has a witness`);
    for (const m of ws)
      t.ok(text.includes(`  ${m.name}: ${m.defect}`) || text.includes(`  ${m.name} (warns): ${m.defect}`), `${c.id} witness ${m.name} with its defect`);
  }
});

t.test("details: pseudo-probes, own sessions, weaker sub-rules, shared witnesses, handshake scoring", async (t) => {
  t.match(explain("F5"), /provenance-files: sends nothing: re-reads the file:\/\/ documents/);
  t.match(explain("R1"), /malformed-input \(in the session of malformed input\): /);
  t.match(explain("R1"), /Its SHOULD part is scored as a SHOULD: warn \(fail under --strict\)/);
  t.notMatch(explain("H2"), /Its SHOULD part/);
  t.match(explain("F11"), /H2-empty-name: .* \(also fails H2\)/);
  t.match(explain("H1"), /A missing handshake_ack is this check's own failure/);
  t.match(explain("H2"), /When its stimulus could not be seen through \(no start, no handshake_ack.*it is not observed/);
  t.match(explain("B3"), /How it is scored \(checks\/B3\.ts\)\n {2}Stimulus: every full frame served/);
  t.notMatch(explain("F1"), /\(not a registered probe\)/);
});

t.test("every excluded anchor explains with its reason", async (t) => {
  for (const [a, why] of Object.entries(EXCLUDED)) {
    const text = explain(a);
    t.ok(text?.startsWith(`${a}: excluded, no check`), `${a} heading`);
    t.ok(text?.includes(why), `${a} gives its reason`);
  }
});

t.test("ids match ignoring case; an unknown id is undefined", async (t) => {
  t.equal(explain("s2-FRAMING"), explain("S2-framing"));
  t.equal(explain("c1"), explain("C1"));
  t.equal(explain("Z9"), undefined);
  t.equal(explain(""), undefined);
  t.equal(explain("B*"), undefined);
});

t.test("no check names a probe the explainer cannot describe", async (t) => {
  for (const c of CHECKS) t.notMatch(explain(c.id)!, /\(not a registered probe\)/, c.id);
});

t.test("host checks, host-only anchors and scenarios explain too", async (t) => {
  for (const c of HOST_CHECKS) {
    const text = explain(c.id)!;
    t.ok(text.startsWith(`${c.id} (${c.level}): ${c.title}`), `${c.id} heading`);
    t.ok(text.includes(c.requirement), `${c.id} quotes its requirement`);
    for (const sc of c.scenarios) t.ok(text.includes(`  ${sc.name}`), `${c.id} names scenario ${sc.name}`);
    t.match(text, /Witnesses \(host modes[\s\S]*\n {2}[A-Z]\d*[\w-]*: /, `${c.id} names a witness`);
  }
  t.ok(explain("C2")?.startsWith("host:C2 "), "an anchor only a host check covers explains as that host check");
  t.match(explain("H4")!, /The host half of H4 is host:H4/, "a provider check points at its host half");
  for (const sc of SCENARIOS) {
    const text = explain(sc.name)!;
    t.ok(text.startsWith(`${sc.name}: a scenario of cgp-conform host`), `${sc.name} heading`);
    t.ok(text.includes("Host checks that read it"), `${sc.name} lists its readers`);
    for (const c of HOST_CHECKS.filter((x) => x.scenarios.includes(sc))) t.ok(text.includes(`  ${c.id} (`), `${sc.name} names ${c.id}`);
  }
});
