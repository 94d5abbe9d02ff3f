import { readFileSync } from "node:fs";
import t from "tap";
import { EXCLUDED } from "../checks/excluded.ts";
import { CHECKS } from "../checks/index.ts";

// The normative spec (a byte-for-byte copy kept in test/reference/).
const spec = readFileSync(new URL("./reference/protocol-surface.txt", import.meta.url), "utf8");
const anchors = [...spec.matchAll(/^\| ([A-Z]{1,2}\d+) \|/gm)].map((m) => m[1]!);
const checked = new Set(CHECKS.map((c) => c.id));

t.ok(anchors.length >= 60, `the spec's requirement tables are read (${anchors.length} anchors)`);
t.equal(new Set(anchors).size, anchors.length, "each anchor appears once in the tables");

for (const a of anchors) {
  const inRegistry = checked.has(a);
  const excluded = a in EXCLUDED;
  t.ok(
    inRegistry !== excluded,
    `${a} is ${inRegistry && excluded ? "both checked and excluded" : inRegistry ? "checked" : excluded ? `excluded: ${EXCLUDED[a]}` : "neither checked nor excluded"}`,
  );
}

t.test("nothing is excluded or checked that the spec does not number", async (t) => {
  for (const a of Object.keys(EXCLUDED)) t.ok(anchors.includes(a), `excluded ${a} is a spec anchor`);
  for (const c of CHECKS) {
    // Section checks (S2-framing, S6-as-of, …) cover MUST rules the spec gives no number.
    if (/^S\d+-/.test(c.id)) continue;
    t.ok(anchors.includes(c.id), `check ${c.id} is a spec anchor`);
  }
});
