import { readFileSync } from "node:fs";
import t from "tap";
import { digestOf, isDigest } from "../../src/math/digest.ts";
import { sliceRange } from "../../src/math/range.ts";

// The protocol's published range vectors: the spec's own witnesses.
const vectors = JSON.parse(readFileSync(new URL("../published/range-vectors.json", import.meta.url), "utf8")) as {
  resources: Record<string, string>;
  cases: Array<{ resource: string; range?: string; bytes?: string; digest?: string; unverifiable?: string; note: string }>;
};
const enc = new TextEncoder();

t.equal(vectors.cases.length, 31, "all 31 published cases are read");
for (const c of vectors.cases) {
  t.test(`${c.resource} ${JSON.stringify(c.range ?? null)}: ${c.note}`, async (t) => {
    const r = sliceRange(enc.encode(vectors.resources[c.resource]!), c.range);
    if (c.unverifiable) {
      t.same(r, { ok: false, reason: c.unverifiable });
    } else {
      t.ok(r.ok);
      if (r.ok) {
        t.same(Buffer.from(r.bytes), Buffer.from(enc.encode(c.bytes!)), "the addressed bytes");
        t.equal(digestOf(r.bytes), c.digest, "their digest");
      }
    }
  });
}

t.test("digest grammar", async (t) => {
  t.ok(isDigest(`sha256:${"a".repeat(64)}`));
  for (const bad of [
    `sha256:${"A".repeat(64)}`,
    `sha256:${"a".repeat(63)}`,
    `SHA256:${"a".repeat(64)}`,
    `sha512:${"a".repeat(64)}`,
    `sha256:${"g".repeat(64)}`,
    7,
  ]) {
    t.notOk(isDigest(bad), JSON.stringify(bad));
  }
});
