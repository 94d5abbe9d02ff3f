import { readFileSync } from "node:fs";
import t from "tap";
import { EXCLUDED, HOST_HALF_UNCHECKED } from "../checks/excluded.ts";
import { CHECKS } from "../checks/index.ts";
import { HOST_CHECKS } from "../checks/host/index.ts";

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
