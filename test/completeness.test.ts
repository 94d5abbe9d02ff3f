import { readFileSync } from "node:fs";
import t from "tap";
import { EXCLUDED, HOST_HALF_UNCHECKED } from "../checks/excluded.ts";
import { CHECKS } from "../checks/index.ts";
import { HOST_CHECKS } from "../checks/host/index.ts";
import { COVERAGE, REASONS } from "../src/docs/coverage-map.ts";
import { coverageMarkdown, coverageRows, placementsOf, renderCoverage } from "../src/docs/coverage.ts";
import { SENTENCES } from "../src/docs/normative.generated.ts";
import { normativeSentences, quotes, SPEC_TEXTS } from "../src/docs/normative.ts";
import { cli } from "./helpers/live.ts";

// The normative spec (a byte-for-byte copy kept in test/published/).
const spec = readFileSync(new URL("./published/protocol-surface.txt", import.meta.url), "utf8");
const rows = new Map([...spec.matchAll(/^\| ([A-Z]{1,2}\d+) \|(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
const anchors = [...rows.keys()];
const checked = new Set(CHECKS.map((c) => c.id));
const hostChecked = new Set(HOST_CHECKS.map((c) => c.anchor));
/** An anchor whose requirement binds a host in so many words. */
const hostBound = (a: string): boolean => /\bA host\b|\bby the host\b/.test(rows.get(a) ?? "");

t.ok(anchors.length >= 60, `the spec's requirement tables are read (${anchors.length} anchors)`);
t.equal(new Set([...spec.matchAll(/^\| ([A-Z]{1,2}\d+) \|/gm)].map((m) => m[1])).size, anchors.length, "each anchor appears once in the tables");
t.ok(anchors.filter(hostBound).length >= 15, `the host-bound anchors are found (${anchors.filter(hostBound).join(", ")})`);

for (const a of anchors) {
  const covered = checked.has(a) || hostChecked.has(a);
  const excluded = a in EXCLUDED;
  t.ok(
    covered !== excluded,
    `${a} is ${covered && excluded ? "both checked and excluded" : covered ? "checked" : excluded ? `excluded: ${EXCLUDED[a]}` : "neither checked nor excluded"}`,
  );
}

t.test("the HTTP transport's rules toward a non-loopback provider are host-checked, no longer excluded", async (t) => {
  for (const a of ["C4", "C7"]) {
    t.ok(hostChecked.has(a), `${a} has a host check`);
    t.notOk(a in EXCLUDED, `${a} is not excluded`);
    t.ok(hostBound(a), `${a} binds a host`);
  }
});

t.test("the reuse rules are host-checked: one identity, digest-less frames, and what a verdict permits", async (t) => {
  for (const a of ["D2", "D3", "V2", "V3", "V4"]) {
    t.ok(hostChecked.has(a), `${a} has a host check`);
    t.notOk(a in EXCLUDED, `${a} is not excluded`);
    t.notOk(a in HOST_HALF_UNCHECKED, `${a}'s host half is not listed as unchecked`);
  }
});

t.test("a host-bound anchor counts as checked only where a host check covers it", async (t) => {
  for (const a of anchors.filter(hostBound)) {
    const how = hostChecked.has(a)
      ? "a host check covers it"
      : a in EXCLUDED
        ? EXCLUDED[a]!.startsWith("host-side")
          ? "excluded as host-side"
          : `excluded, but not as host-side: ${EXCLUDED[a]}`
        : a in HOST_HALF_UNCHECKED
          ? `its host half is listed as unchecked: ${HOST_HALF_UNCHECKED[a]}`
          : "only a provider check covers it, and its host half is neither host-checked nor listed";
    t.ok(hostChecked.has(a) || EXCLUDED[a]?.startsWith("host-side") || a in HOST_HALF_UNCHECKED, `${a}: ${how}`);
  }
  for (const a of Object.keys(HOST_HALF_UNCHECKED)) {
    t.ok(checked.has(a) && !hostChecked.has(a) && hostBound(a), `${a} is listed as a host half unchecked: provider-checked, host-bound, with no host check`);
  }
});

t.test("context-reuse §1's composition MUSTs are each quoted by a host check of its section", async (t) => {
  const reuse = readFileSync(new URL("./published/context-reuse.txt", import.meta.url), "utf8");
  const from = reuse.indexOf("A host that composes a set of frames into a single context block:");
  const rules = reuse
    .slice(from, reuse.indexOf("SHOULD de-duplicate", from))
    .split("\n")
    .filter((l) => /^MUST/.test(l));
  t.equal(rules.length, 2, "the two composition MUSTs are read");
  for (const rule of rules) {
    // A requirement quotes a rule up to the sentence's own punctuation.
    const quoted = rule.replace(/[;.]$/, "");
    const by = HOST_CHECKS.filter((c) => /^CR1-/.test(c.anchor) && c.requirement.includes(quoted));
    t.equal(by.length, 1, `one host check quotes "${quoted.slice(0, 60)}…": ${by.map((c) => c.id).join(", ")}`);
  }
});

t.test("nothing is excluded or checked that the spec does not number", async (t) => {
  for (const a of Object.keys(EXCLUDED)) t.ok(anchors.includes(a), `excluded ${a} is a spec anchor`);
  for (const c of CHECKS) {
    // Section checks (S2-framing, S6-as-of, …) cover MUST rules the spec gives no number.
    if (/^S\d+-/.test(c.id)) continue;
    t.ok(anchors.includes(c.id), `check ${c.id} is a spec anchor`);
  }
  for (const c of HOST_CHECKS) {
    t.equal(c.id, `host:${c.anchor}`, `${c.id}: its id is host: and its anchor`);
    // Section checks: S<n>- of protocol-surface, CR<n>- of context-reuse §n (whose own numbering collides with protocol-surface's).
    if (/^S\d+-/.test(c.anchor)) continue;
    if (/^CR\d+-/.test(c.anchor)) {
      t.match(c.requirement, new RegExp(`\\(context-reuse §${/^CR(\d+)-/.exec(c.anchor)![1]}\\)`), `host check ${c.id} cites its context-reuse section`);
      continue;
    }
    t.ok(anchors.includes(c.anchor), `host check ${c.id} is a spec anchor`);
  }
});

t.test("every keyword sentence of the three spec texts is placed once: claimed by checks, or listed with its reason", async (t) => {
  const cut = SPEC_TEXTS.flatMap((name) => normativeSentences(name, readFileSync(new URL(`./published/${name}.txt`, import.meta.url), "utf8")));
  t.same(SENTENCES, cut, "src/docs/normative.generated.ts holds the sentences the spec copies cut into (npm run registry)");
  t.ok(cut.length >= 100, `the sentences are read (${cut.length})`);
  const ids = new Set([...CHECKS.map((c) => c.id), ...HOST_CHECKS.map((c) => c.id)]);
  for (const s of cut) {
    const places = placementsOf(s);
    t.equal(places.length, 1, `${s.text}${s.anchor ? ` ${s.anchor}` : ""} "${s.sentence.slice(0, 70)}…" is placed once (${places.length})`);
  }
  for (const p of COVERAGE) {
    const named = cut.filter((s) => s.text === p.in && quotes(p.quote, s));
    t.equal(named.length, 1, `the placement "${p.quote.slice(0, 50)}" names one sentence of ${p.in} (${named.length})`);
    t.ok((p.by?.length ?? 0) > 0 || p.why !== undefined, `"${p.quote.slice(0, 50)}": claimed by a check or listed with a reason`);
    for (const id of p.by ?? []) t.ok(ids.has(id), `"${p.quote.slice(0, 40)}": ${id} is a registered check`);
    if (p.why) t.ok(p.why in REASONS, `"${p.quote.slice(0, 40)}": ${p.why} is a reason`);
  }
  // A keyword sentence in a row of protocol-surface's tables is claimed by its anchor's check, or listed for the reason its anchor is excluded.
  for (const s of cut.filter((s) => s.text === "protocol-surface" && s.anchor)) {
    const p = placementsOf(s)[0];
    const byAnchor = (p?.by ?? []).some((id) => id === s.anchor || id === `host:${s.anchor}` || id.startsWith(`host:${s.anchor}-`));
    const unheld = (p?.by ?? []).length === 0 && (s.anchor! in EXCLUDED || s.anchor! in HOST_HALF_UNCHECKED || p?.why !== undefined);
    t.ok(byAnchor || unheld || (p?.by ?? []).length > 0, `${s.anchor}: "${s.sentence.slice(0, 50)}…" is held by its anchor's check, or listed`);
  }
});

t.test("docs/coverage.md and list --coverage are rendered from the one mapping", async (t) => {
  const page = readFileSync(new URL("../docs/coverage.md", import.meta.url), "utf8");
  t.ok(page.includes(coverageMarkdown()), "docs/coverage.md holds the generated table (npm run docs)");
  const text = renderCoverage(100);
  for (const r of coverageRows()) {
    t.ok(text.includes(`${r.text}${r.anchor ? ` ${r.anchor}` : ""} · ${r.keywords.join(", ")}`), `list --coverage shows ${r.sentence.slice(0, 40)}…`);
  }
  t.ok(
    text.split("\n").every((l) => l.length <= 100 || !l.includes(" ")),
    "list --coverage wraps to the width",
  );
});

t.test("cgp-conform list --coverage prints the mapping, as text and as JSON", async (t) => {
  // Run as a process: its stdout is its own, not tap's (a hijacked process.stdout can swallow tap's report).
  const run = async (argv: string[]): Promise<string> => {
    const r = await cli(argv, { env: { COLUMNS: "100" } });
    t.equal(r.exitCode, 0, `${argv.join(" ")}: exit 0`);
    return String(r.stdout);
  };
  t.equal((await run(["list", "--coverage"])).trimEnd(), renderCoverage(undefined).trimEnd(), "the text is renderCoverage's");
  const json = JSON.parse(await run(["list", "--coverage", "--json"]));
  t.equal(json.sentences.length, coverageRows().length, "the JSON holds every sentence");
  t.equal(json.counts.sentences, coverageRows().length, "with the counts");
});
