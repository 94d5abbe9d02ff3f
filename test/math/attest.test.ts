import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import t from "tap";
import {
  TAG,
  chainHead,
  compareIdentity,
  encOpt,
  encStr,
  encodeLink,
  frameCommitment,
  fromDigest,
  inclusionProof,
  merkleLeaf,
  merkleNode,
  merkleRoot,
  rootFromProof,
  toDigest,
  type FrameIdentity,
  type InclusionProof,
  type ProvenanceLink,
} from "../../src/math/attest.ts";

const readJson = (url: URL): any => JSON.parse(readFileSync(url, "utf8"));
// The protocol's published vectors (the interop contract) and our own.
const pub = readJson(new URL("../published/attestation-vectors.json", import.meta.url));
const ours = readJson(new URL("../vectors/attestation.json", import.meta.url));

// ── The second route: Buffer + node:crypto, sharing nothing with src/math/attest.ts. ──
const sha = (...parts: (Buffer | string)[]): Buffer =>
  createHash("sha256")
    .update(Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : p))))
    .digest();
const u32be = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const xStr = (s: string): Buffer => Buffer.concat([u32be(Buffer.byteLength(s, "utf8")), Buffer.from(s, "utf8")]);
const xOpt = (s: string | null | undefined): Buffer => (s == null ? Buffer.from([0]) : Buffer.concat([Buffer.from([1]), xStr(s)]));
const xLink = (l: ProvenanceLink): Buffer => Buffer.concat([xStr(l.type), xOpt(l.uri), xOpt(l.range), xOpt(l.digest), xOpt(l.method), xOpt(l.by)]);
const xHead = (links: ProvenanceLink[]): Buffer => links.reduce((h, l) => sha("contextgraph/attest/1/link", h, xLink(l)), sha("contextgraph/attest/1/genesis"));
const xFramePreimage = (p: string, f: string, d: string | undefined, head: Buffer): Buffer =>
  Buffer.concat([Buffer.from("contextgraph/attest/1/frame"), xStr(p), xStr(f), xOpt(d), head]);
const xLeaf = (c: Buffer): Buffer => sha(Buffer.from([0]), c);
const xNode = (l: Buffer, r: Buffer): Buffer => sha(Buffer.from([1]), l, r);
/** RFC 6962 §2.1 MTH, written straight from the definition. */
function xMth(d: Buffer[]): Buffer {
  if (d.length === 0) return sha("contextgraph/attest/1/merkle-empty");
  if (d.length === 1) return xLeaf(d[0]!);
  let k = 1;
  while (k * 2 < d.length) k *= 2;
  return xNode(xMth(d.slice(0, k)), xMth(d.slice(k)));
}
/** The shortcut §6.5.3 rejects: pair up each level, duplicating an odd level's last node. */
function xDuplicateLast(d: Buffer[]): Buffer {
  let level = d.map(xLeaf);
  while (level.length > 1) {
    if (level.length % 2 === 1) level.push(level[level.length - 1]!);
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(xNode(level[i]!, level[i + 1]!));
    level = next;
  }
  return level[0]!;
}
/** Folds a proof without looking at leaf_count: only the sides the proof claims. */
const xFold = (c: Buffer, p: InclusionProof): Buffer =>
  p.path.reduce((h, s) => {
    const sib = Buffer.from(s.sibling.slice(7), "hex");
    return s.sibling_is_left ? xNode(sib, h) : xNode(h, sib);
  }, xLeaf(c));

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const dig = (b: Uint8Array): string => `sha256:${hex(b)}`;
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "hex"));
const undig = (s: string): Uint8Array => {
  const r = fromDigest(s);
  if (!r.ok) throw new Error(`bad digest in vectors: ${s}`);
  return r.bytes;
};

t.test("published vectors", async (t) => {
  t.test("domain tags", async (t) => {
    const tags = pub.domain_tags;
    t.same(
      { genesis: TAG.genesis, link: TAG.link, frame: TAG.frame, merkle_empty: TAG.merkleEmpty },
      { genesis: tags.genesis, link: tags.link, frame: tags.frame, merkle_empty: tags.merkle_empty },
    );
    const c = new Uint8Array(32).fill(9);
    t.equal(hex(merkleLeaf(c)), hex(sha(Buffer.from(tags.merkle_leaf_prefix_hex, "hex"), Buffer.from(c))), "leaf prefix");
    t.equal(hex(merkleNode(c, c)), hex(sha(Buffer.from(tags.merkle_node_prefix_hex, "hex"), Buffer.from(c), Buffer.from(c))), "node prefix");
  });

  t.test("link encodings", async (t) => {
    const names = Object.keys(pub.link_encodings_hex);
    t.same(names.sort(), ["ascii_minimal", "unicode"]);
    for (const name of names) {
      t.equal(hex(encodeLink(pub.links[name])), pub.link_encodings_hex[name], name);
      t.equal(hex(xLink(pub.links[name])), pub.link_encodings_hex[name], `${name} (second route)`);
    }
  });

  t.test("unicode length trap", async (t) => {
    for (const field of ["uri", "by"] as const) {
      const s: string = pub.links.unicode[field];
      const want = pub.unicode_length_trap[field];
      t.equal(new DataView(encStr(s).buffer).getUint32(0), want.utf8_bytes, `${field}: prefix is the UTF-8 byte length`);
      t.equal(s.length, want.utf16_code_units, `${field}: String.length is what a naive port would write`);
      t.equal([...s].length, want.code_points, `${field}: so is a code-point count`);
    }
  });

  t.test("chain heads", async (t) => {
    const chains: Record<string, string[]> = { empty: [], file: ["file"], file_then_derivation: ["file", "derivation"], unicode: ["unicode"] };
    t.same(Object.keys(chains).sort(), Object.keys(pub.chain_heads).sort(), "every published head is covered");
    for (const [name, links] of Object.entries(chains)) {
      const ls = links.map((k) => pub.links[k]);
      t.equal(toDigest(chainHead(ls)), pub.chain_heads[name], name);
      t.equal(dig(xHead(ls)), pub.chain_heads[name], `${name} (second route)`);
    }
  });

  t.test("frame commitment", async (t) => {
    const v = pub.frame_commitment;
    const head = chainHead(v.frame.provenance.map((k: string) => pub.links[k]));
    t.equal(toDigest(frameCommitment(v.provider_id, v.frame.id, v.frame.content_digest, head)), v.commitment);
    t.equal(dig(sha(xFramePreimage(v.provider_id, v.frame.id, v.frame.content_digest, Buffer.from(head)))), v.commitment, "second route");
  });

  t.test("merkle", async (t) => {
    const m = pub.merkle;
    const leaves: Uint8Array[] = m.leaf_frames.map((f: any) => {
      t.same(f.provenance, [], "leaf frames carry no provenance");
      return frameCommitment(m.provider_id, f.id, f.content_digest, chainHead([]));
    });
    for (const [n, root] of Object.entries(m.roots_by_leaf_count)) {
      const first = leaves.slice(0, Number(n));
      t.equal(toDigest(merkleRoot(first)), root, `root over ${n}`);
      t.equal(dig(xMth(first.map((c) => Buffer.from(c)))), root, `root over ${n} (second route)`);
    }
    const proof = m.inclusion_proof as InclusionProof;
    t.same(inclusionProof(leaves, proof.leaf_index), proof, "our proof is the published proof");
    const r = rootFromProof(leaves[proof.leaf_index]!, proof);
    t.ok(r.ok && toDigest(r.root) === m.roots_by_leaf_count["7"], "the published proof recomputes the 7-leaf root");
  });
});

const links: Record<string, ProvenanceLink> = Object.fromEntries(Object.entries(ours.links).map(([k, v]: [string, any]) => [k, v.link]));

t.test("our vectors", async (t) => {
  t.test("link preimages", async (t) => {
    for (const [name, v] of Object.entries<any>(ours.links)) {
      t.equal(hex(encodeLink(v.link)), v.preimage_hex, name);
      t.equal(hex(xLink(v.link)), v.preimage_hex, `${name} (second route)`);
    }
    for (const [a, b] of ours.must_differ) t.not(ours.links[a].preimage_hex, ours.links[b].preimage_hex, `${a} ≠ ${b}`);
    for (const [a, b] of ours.must_equal) t.equal(ours.links[a].preimage_hex, ours.links[b].preimage_hex, `${a} = ${b}`);
  });

  t.test("bare concatenation would collide; the prefixes do not", async (t) => {
    const bare = (l: ProvenanceLink) => [l.type, l.uri ?? "", l.range ?? ""].join("");
    t.equal(bare(links.split_ab_c!), bare(links.split_a_bc!));
    t.not(hex(encodeLink(links.split_ab_c!)), hex(encodeLink(links.split_a_bc!)));
  });

  t.test("length prefixes count UTF-8 bytes", async (t) => {
    const cases: [string, number, number][] = [
      ["café", 5, 4],
      ["🤖", 4, 2],
      ["ü", 2, 1],
      ["日本", 6, 2],
      ["", 0, 0],
    ];
    for (const [s, utf8, utf16] of cases) {
      t.equal(s.length, utf16, `${JSON.stringify(s)} String.length`);
      t.equal(hex(encStr(s)), hex(xStr(s)), `${JSON.stringify(s)} encodes as the second route does`);
      t.equal(new DataView(encStr(s).buffer).getUint32(0), utf8, `${JSON.stringify(s)} prefix`);
    }
  });

  t.test("enc_opt: absent, null and empty", async (t) => {
    t.same([...encOpt(undefined)], [0x00]);
    t.same([...encOpt(null)], [0x00]);
    t.same([...encOpt("")], [0x01, 0, 0, 0, 0], 'Some("") is not None');
  });

  t.test("a lone surrogate has no UTF-8 encoding and is refused", async (t) => {
    t.throws(() => encStr("a\uD800b"), RangeError);
    t.throws(() => encodeLink({ type: "file", by: "\uDC00" }), RangeError);
  });

  t.test("chain heads", async (t) => {
    for (const [name, v] of Object.entries<any>(ours.chain_heads)) {
      if (name === "$comment") continue;
      const ls = v.links.map((k: string) => links[k]!);
      t.equal(toDigest(chainHead(ls)), v.head, name);
      t.equal(dig(xHead(ls)), v.head, `${name} (second route)`);
    }
    const h = ours.chain_heads;
    t.equal(h.genesis.head, pub.chain_heads.empty, "empty provenance is the genesis value, not zero");
    t.not(h.uri_null.head, h.uri_empty.head, "deleting a uri changes the head");
    t.not(h.one_ab_c.head, h.one_a_bc.head);
    t.not(h.two.head, h.two_reversed.head, "reordering changes the head");
  });

  t.test("frame commitments", async (t) => {
    for (const [name, v] of Object.entries<any>(ours.frame_commitments)) {
      const head = chainHead(v.provenance.map((k: string) => links[k]!));
      const pre = xFramePreimage(v.provider_id, v.frame_id, v.content_digest, xHead(v.provenance.map((k: string) => links[k]!)));
      t.equal(hex(pre), v.preimage_hex, `${name}: preimage (second route)`);
      t.equal(dig(sha(pre)), v.commitment, `${name}: hash of the preimage`);
      t.equal(toDigest(frameCommitment(v.provider_id, v.frame_id, v.content_digest, head)), v.commitment, name);
    }
    const f = ours.frame_commitments;
    const distinct = new Set([f.absent.commitment, f.present.commitment, f.empty_string.commitment]);
    t.equal(distinct.size, 3, "absent, present and empty content_digest commit differently");
    t.not(f.split_ab_c.commitment, f.split_a_bc.commitment, "provider/frame split is not ambiguous");
    t.throws(() => frameCommitment("p", "f", undefined, new Uint8Array(31)), RangeError);
  });

  const m = ours.merkle;
  const leaves: Uint8Array[] = m.leaves_hex.map(unhex);
  const xLeaves = leaves.map((c) => Buffer.from(c));

  t.test("merkle roots", async (t) => {
    t.same(Object.keys(m.roots_by_leaf_count).map(Number), [0, 1, 2, 3, 4, 5, 7]);
    for (const [n, root] of Object.entries<string>(m.roots_by_leaf_count)) {
      t.equal(toDigest(merkleRoot(leaves.slice(0, Number(n)))), root, `${n} leaves`);
      t.equal(dig(xMth(xLeaves.slice(0, Number(n)))), root, `${n} leaves (second route)`);
    }
    for (const [n, root] of Object.entries<string>(m.duplicate_last_roots_by_leaf_count)) {
      t.equal(dig(xDuplicateLast(xLeaves.slice(0, Number(n)))), root, `${n} leaves, shortcut`);
      t.not(root, m.roots_by_leaf_count[n], `${n} leaves: the shortcut is not RFC 6962`);
    }
    for (const n of [1, 2, 4]) {
      t.equal(dig(xDuplicateLast(xLeaves.slice(0, n))), m.roots_by_leaf_count[n], `${n} leaves: the two agree on a power of two`);
    }
  });

  t.test("the shortcut's collision, and RFC 6962 keeping it apart", async (t) => {
    const sc = m.shortcut_collision;
    const short = sc.short_leaf_indices.map((i: number) => leaves[i]!);
    const long = sc.long_leaf_indices.map((i: number) => leaves[i]!);
    t.equal(toDigest(merkleRoot(short)), sc.rfc6962_short);
    t.equal(toDigest(merkleRoot(long)), sc.rfc6962_long);
    t.not(sc.rfc6962_short, sc.rfc6962_long);
    t.equal(dig(xDuplicateLast(short.map((c: Uint8Array) => Buffer.from(c)))), sc.duplicate_last_both);
    t.equal(dig(xDuplicateLast(long.map((c: Uint8Array) => Buffer.from(c)))), sc.duplicate_last_both);
  });

  t.test("inclusion proof at every index of 7", async (t) => {
    const root = m.roots_by_leaf_count["7"];
    t.equal(m.inclusion_proofs_7.length, 7);
    for (const proof of m.inclusion_proofs_7 as InclusionProof[]) {
      const i = proof.leaf_index;
      t.same(inclusionProof(leaves, i), proof, `index ${i}: proof`);
      const r = rootFromProof(leaves[i]!, proof);
      t.ok(r.ok && toDigest(r.root) === root, `index ${i}: recomputes the root`);
      t.equal(dig(xFold(xLeaves[i]!, proof)), root, `index ${i}: recomputes the root (second route)`);
    }
  });

  t.test("every proof of every small tree folds to its root", async (t) => {
    for (let n = 1; n <= 7; n++) {
      const root = toDigest(merkleRoot(leaves.slice(0, n)));
      for (let i = 0; i < n; i++) {
        const r = rootFromProof(leaves[i]!, inclusionProof(leaves.slice(0, n), i));
        t.ok(r.ok && toDigest(r.root) === root, `n=${n} i=${i}`);
      }
    }
    t.throws(() => inclusionProof(leaves, 7), RangeError);
    t.throws(() => inclusionProof([], 0), RangeError);
  });

  t.test("canonical order", async (t) => {
    const sorted: FrameIdentity[] = ours.canonical_order.sorted;
    const scrambled = [...sorted].reverse();
    scrambled.push(scrambled.shift()!);
    t.same([...scrambled].sort(compareIdentity), sorted);
    // Second route: UTF-8 byte comparison, then None before Some.
    const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
    const byBytes = (a: FrameIdentity, b: FrameIdentity) =>
      bytes(a.provider_id, b.provider_id) ||
      bytes(a.frame_id, b.frame_id) ||
      (a.content_digest == null ? (b.content_digest == null ? 0 : -1) : b.content_digest == null ? 1 : bytes(a.content_digest, b.content_digest));
    t.same([...scrambled].sort(byBytes), sorted, "UTF-8 byte order agrees");
    const [lo, hi] = ours.canonical_order.utf16_swaps as [string, string];
    t.ok(compareIdentity({ provider_id: "a", frame_id: lo }, { provider_id: "a", frame_id: hi }) < 0, "code-point order");
    t.ok(hi < lo, "JS < (UTF-16 code units) would order them the other way");
    t.equal(compareIdentity(sorted[1]!, { ...sorted[1]!, content_digest: null }), 0, "null and absent are both None");
  });
});

t.test("rootFromProof refuses a proof of the wrong shape", async (t) => {
  const leaves: Uint8Array[] = ours.merkle.leaves_hex.map(unhex);
  const good = (i: number) => inclusionProof(leaves, i);
  const cases: [string, InclusionProof, string][] = [
    ["leaf_count 0", { ...good(0), leaf_count: 0 }, "bad-leaf-count"],
    ["leaf_count not an integer", { ...good(0), leaf_count: 6.5 }, "bad-leaf-count"],
    ["negative index", { ...good(0), leaf_index: -1 }, "bad-leaf-index"],
    ["index = count", { ...good(6), leaf_index: 7 }, "index-out-of-range"],
    ["claims 8 leaves where 7 give a 2-step path", { ...good(6), leaf_count: 8 }, "wrong-path-length"],
    ["claims 5 leaves for a 3-step path", { ...good(4), leaf_count: 5 }, "wrong-path-length"],
    ["a step dropped", { ...good(0), path: good(0).path.slice(1) }, "wrong-path-length"],
    ["a side flipped", { ...good(3), path: good(3).path.map((s, i) => (i === 0 ? { ...s, sibling_is_left: !s.sibling_is_left } : s)) }, "wrong-side"],
    ["an index that names a different leaf", { ...good(3), leaf_index: 2 }, "wrong-side"],
    [
      "uppercase sibling",
      { ...good(1), path: good(1).path.map((s) => ({ ...s, sibling: s.sibling.toUpperCase().replace("SHA256", "sha256") })) },
      "malformed-sibling",
    ],
  ];
  for (const [name, proof, kind] of cases) {
    const r = rootFromProof(leaves[Math.min(Math.max(proof.leaf_index, 0), 6)]!, proof);
    t.equal(r.ok ? "ok" : r.failure.kind, kind, name);
  }
  const wrongLeaf = rootFromProof(leaves[2]!, good(3));
  t.ok(wrongLeaf.ok && toDigest(wrongLeaf.root) !== ours.merkle.roots_by_leaf_count["7"], "a wrong leaf folds to a different root");
});

t.test("digest rendering", async (t) => {
  const b = new Uint8Array(32).fill(0xab);
  t.equal(toDigest(b), `sha256:${"ab".repeat(32)}`);
  t.same(undig(toDigest(b)), b, "round trip");
  t.throws(() => toDigest(new Uint8Array(31)), RangeError);
  const bad: [string, RegExp][] = [
    [`sha256:${"AB".repeat(32)}`, /lowercase/],
    [`SHA256:${"ab".repeat(32)}`, /prefix/],
    [`sha512:${"ab".repeat(32)}`, /prefix/],
    [`sha256:${"ab".repeat(31)}a`, /64/],
    [`sha256:${"ab".repeat(33)}`, /64/],
    [`sha256:${"g".repeat(64)}`, /hex/],
    [` sha256:${"ab".repeat(32)}`, /prefix/],
    [`sha256:${"ab".repeat(31)}a `, /hex/],
    ["", /prefix/],
  ];
  for (const [s, why] of bad) {
    const r = fromDigest(s);
    t.ok(!r.ok && why.test(r.why), JSON.stringify(s));
  }
});
