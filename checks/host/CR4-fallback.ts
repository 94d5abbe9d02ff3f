import type { Evidence } from "../kit/check.ts";
import { noBlocks } from "../kit/blocks.ts";
import { defineHostCheck } from "../kit/host.ts";
import { lineWords } from "../kit/host-evidence.ts";
import { findings } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { framesIn, type Obj } from "../../src/protocol/envelope.ts";
import { markersIn, PLACEHOLDERS, REUSE_WITHOUT_VERIFY } from "../../src/protocol/host-scenarios.ts";
import type { HostEnvelope } from "../../src/transcript/host.ts";

const NAME = REUSE_WITHOUT_VERIFY.name;

/** The one marker a frame's content holds, if exactly one. */
const markerOf = (f: Obj): string | undefined => {
  const m = typeof f.content === "string" ? markersIn(f.content) : [];
  return m.length === 1 ? m[0] : undefined;
};

/**
 * A frame of the first answer no later answer served again as it was: its
 * marker, and what the answers after the first served instead (the same
 * frame id under another marker, at that line), or nothing of it at all.
 */
type Held = { frame_id: string; marker: string; instead: string | null; instead_at: number | null };
const heldSaid = (h: Held): string =>
  `${show(h.frame_id, 60)} (${h.marker}): ${h.instead !== null ? `served again with other content (${h.instead}, line ${h.instead_at})` : "not served again by any later answer"}`;

type Block = { index: number; line: number };
const blockSaid = (b: Block): string =>
  `${b.index === 1 ? "the first block" : b.index === 2 ? "the second block" : `block ${b.index}`} (${PLACEHOLDERS.context} line ${b.line})`;

type Stored = { block: Block; frames: Held[]; markers: string[]; first: number; again: number[]; after_marker: string | null; after: number | null };
const copies = (p: Stored): string =>
  `scenario ${NAME}, ${blockSaid(p.block)}: it holds ${p.frames.length === 1 ? "the stored copy of" : `the stored copies of ${p.frames.length} frames:`} ${p.frames.map(heldSaid).join("; ")}; the provider declares no verify, and the host's first answer (line ${p.first}) was followed by its query again (${lineWords(p.again)})`;
const fix =
  "a provider without verify gives no verdict, so nothing held of it may be reused unchecked: compose each frame as the query again served it, and drop what it no longer serves";
const expected = (p: Stored): string => `no stored copy of ${p.markers.join(", ")} in a block composed after the query again`;
const actual = (p: Stored): string => `${p.markers.join(", ")} in ${PLACEHOLDERS.context} line ${p.block.line}`;

const F = findings({
  "stored-copy": {
    says: (p: Stored) => `${copies(p)}; the block was composed after that, since it holds ${p.after_marker}, first served at line ${p.after}; ${fix}`,
    expected,
    actual,
  },
  "stored-copy-undated": {
    level: "NONE",
    reading:
      "the block holds no frame first served after the host's first answer, and the blocks are read once the host has ended, so nothing shows it was composed after the query again rather than for the first answer",
    says: (p: Stored) =>
      `${copies(p)}; nothing in the block shows it was composed after the query again (it holds no frame first served after line ${p.first}), so this warns: compose each turn's block once, after that turn's query; ${fix}`,
    expected,
    actual,
  },
  "no-stored-copy": {
    ok: true,
    says: (p: { blocks: number[]; again: number[]; replaced: string[] }) =>
      `scenario ${NAME}: the provider declares no verify; the host queried it again (${lineWords(p.again)}), and ${p.blocks.length === 1 ? "the block composed after that" : `the ${p.blocks.length} blocks composed after that`} (${PLACEHOLDERS.context} ${lineWords(p.blocks)}) ${p.blocks.length === 1 ? "holds" : "hold"} no stored copy of the frames its answers changed or no longer serve (${p.replaced.join(", ")})`,
  },
});

/**
 * @anchor CR4-fallback
 * Stimulus: scenario reuse-without-verify. Its provider declares no
 * capabilities.verify, and its sources change once it has answered its
 * first query (each frame of that answer says so: its valid_to is the moment
 * of the answer): a later query serves fixture:kept as it was,
 * fixture:changed and fixture:resized with new content under new markers and
 * digests, and fixture:removed not at all. Read as host:V4 reads reuse: the
 * blocks the host wrote to {context}, and the frames on the wire. A frame of
 * the first answer is held across queries where an answer after the first
 * did not serve its marker again (served with other content, or not at all);
 * its marker in a block is then its stored copy, which no check on the wire
 * stood behind. A block is dated after the query again where it holds a
 * marker first served by an answer after the first. Findings: a block so
 * dated (the host's first or its fifth) holding a stored copy fails, one
 * finding per block naming every such copy; a later block holding one that
 * nothing dates warns (the blocks are read once the host has ended, so it
 * may be the first turn's, composed twice); a pass where blocks dated after
 * the query again hold none. Reading: the sentence binds what the host
 * reuses, not when or whether it takes another turn, so a host that never
 * reuses is never failed: one that queries once is skipped (it held nothing
 * across queries), and so is one whose blocks show no frame of the query
 * again, saying which behaviour would enable the check. A frame the query
 * again served as it was may be composed from either copy (the same bytes,
 * D2). A verify sent to this provider is host:V1's finding, not this one's.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "CR4-fallback",
  title: "The host queries a provider without verify again, never reusing what it holds unchecked",
  level: "MUST",
  requirement:
    "Against a provider that doesn't [advertise capabilities.verify], the host MUST fall back to re-querying rather than reusing unchecked (requirement V3) — the same fallback a frame with no content_digest gets (context-reuse §4).",
  scenarios: [REUSE_WITHOUT_VERIFY],
  follows: "host:V4",
  score(input) {
    const v = input.scenario(REUSE_WITHOUT_VERIFY);
    if (!v.ran) return { skip: `scenario ${NAME} did not run${v.record?.skipped ? `: ${v.record.skipped}` : ""}` };
    const answers = v.answered("frames");
    const first = answers[0];
    if (!first) return { skip: `the host got no frames in ${NAME}: it held nothing to reuse` };
    const later = answers.slice(1);
    if (later.length === 0)
      return {
        skip: `the host queried once in ${NAME} (its answer at line ${first.n}): it held nothing across queries, so neither a query again nor a reuse shows; a host that queries again (a second turn) and composes after it is judged`,
      };
    const served = (a: HostEnvelope): Obj[] => framesIn(a.env);
    const held: Held[] = [];
    for (const f of served(first)) {
      const marker = markerOf(f);
      if (marker === undefined || later.some((a) => served(a).some((g) => markerOf(g) === marker))) continue;
      const replaced = later.map((a) => ({ a, g: served(a).find((g) => g.id === f.id && markerOf(g) !== undefined) })).find((x) => x.g !== undefined);
      held.push({ frame_id: String(f.id), marker, instead: replaced ? markerOf(replaced.g!)! : null, instead_at: replaced ? replaced.a.n : null });
    }
    if (held.length === 0)
      return {
        skip: `every frame of the host's first answer in ${NAME} (line ${first.n}) was served again as it was (${lineWords(later.map((a) => a.n))}): the provider changed nothing the host asked for, so no stored copy can be told from a fresh one`,
      };
    /** The line of the answer that first served each marker. */
    const firstServed = new Map<string, number>();
    for (const a of answers) for (const g of served(a)) if (markerOf(g) && !firstServed.has(markerOf(g)!)) firstServed.set(markerOf(g)!, a.n);
    const blocks = v.context().filter((b): b is typeof b & { text: string } => b.text !== undefined);
    if (blocks.length === 0) return { skip: noBlocks(input, [v], NAME) };
    const again = later.map((a) => a.n);
    const out: Evidence[] = [];
    const dated: number[] = [];
    for (const [i, b] of blocks.entries()) {
      const markers = [...firstServed.keys()].filter((m) => b.text.includes(m));
      const after = Math.max(first.n, ...markers.map((m) => firstServed.get(m)!));
      const afterMarker = after > first.n ? markers.find((m) => firstServed.get(m) === after)! : null;
      if (afterMarker !== null) dated.push(b.n);
      const stored = held.filter((h) => b.text.includes(h.marker));
      if (stored.length === 0 || (afterMarker === null && i === 0)) continue;
      const p: Stored = {
        block: { index: i + 1, line: b.n },
        frames: stored,
        markers: stored.map((h) => h.marker),
        first: first.n,
        again,
        after_marker: afterMarker,
        after: afterMarker === null ? null : after,
      };
      const lines = [...new Set([b.n, first.n, ...again, ...stored.flatMap((h) => (h.instead_at === null ? [] : [h.instead_at]))])].sort((x, y) => x - y);
      out.push(F.say(afterMarker !== null ? "stored-copy" : "stored-copy-undated", p, { lines }));
    }
    if (out.length > 0) return out;
    if (dated.length > 0)
      return [F.say("no-stored-copy", { blocks: dated, again, replaced: held.map((h) => h.marker) }, { lines: [first.n, ...again, ...dated] })];
    return {
      skip: `no block the host wrote in ${NAME} (${PLACEHOLDERS.context} ${lineWords(blocks.map((b) => b.n))}) holds a frame first served after its first answer (line ${first.n}): none shows it was composed after the query again (${lineWords(again)}); compose after the query again and append that block too`,
    };
  },
});
