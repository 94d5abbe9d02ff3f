import type { Evidence } from "../kit/check.ts";
import { noBlocks } from "../kit/blocks.ts";
import { defineHostCheck } from "../kit/host.ts";
import { findings } from "../kit/findings.ts";
import { servedFrames, type ServedFrame } from "../kit/served.ts";
import { markersIn, REFERENCE_UNRESOLVABLE } from "../../src/protocol/host-scenarios.ts";

/** The fields of a frame a host renders beside its content, whose markers locate where it writes that content. */
const FIELDS = [
  ["title", "title"],
  ["citation_label", "citation label"],
] as const;
type Field = (typeof FIELDS)[number][1];

const markerOf = (v: unknown): string | undefined => (typeof v === "string" ? markersIn(v)[0] : undefined);
/** Every place a text holds a marker. */
function places(text: string, marker: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) out.push(at);
  return out;
}

type At = { block: number; frame_id: string };
type Fabricated = At & { field: Field; marker: string; anchor: Field; offset: number; twin: string; twin_marker: string };

const F = findings({
  fabricated: {
    says: (p: Fabricated) =>
      `scenario reference-unresolvable, line ${p.block}: the block writes the ${p.field} of reference frame ${p.frame_id} (${p.marker}) where it writes a frame's content, ${p.offset} characters after the marker opening its ${p.anchor}, as full frame ${p.twin}'s content (${p.twin_marker}) stands after its own: a reference frame the host cannot rehydrate contributes nothing; render it with no content, name it by its uri, or leave it out`,
    expected: () => "nothing where the reference frame's content would stand",
    actual: (p: Fabricated) => `its ${p.field} (${p.marker}) there`,
  },
  "left-out": {
    ok: true,
    says: (p: At) =>
      `scenario reference-unresolvable, line ${p.block}: the block holds the full frames and nothing of reference frame ${p.frame_id}: it contributes nothing`,
  },
  empty: {
    ok: true,
    says: (p: At & { anchor: Field }) =>
      `scenario reference-unresolvable, line ${p.block}: the block names reference frame ${p.frame_id}, and neither its title nor its citation label stands where the full frames' content stands after their ${p.anchor}: it contributes no content`,
  },
  unlocated: {
    level: "MAY",
    reading:
      "the full frames' content stands at no one distance from their title or citation label in the block, so where the host writes a frame's content, and whether anything stands there for the reference frame, cannot be told",
    says: (p: At) =>
      `scenario reference-unresolvable, line ${p.block}: the block names reference frame ${p.frame_id}, but where the host writes a frame's content cannot be told from it (the full frames' content stands at no one distance from their title or citation label), so whether content was made up for it cannot be seen`,
  },
});

/** Where, in one block, a full frame's content marker stands after the marker of one of its fields: the distance from that field's marker's end. */
function distance(text: string, f: ServedFrame, field: (typeof FIELDS)[number][0]): number | undefined {
  const content = markerOf(f.frame.content);
  const own = markerOf(f.frame[field]);
  if (!content || !own) return undefined;
  const at = text.indexOf(content);
  const anchors = places(text, own);
  if (at === -1 || anchors.length === 0) return undefined;
  // The field's occurrence nearest to the content is the one rendered with it.
  const nearest = anchors.reduce((a, b) => (Math.abs(at - b) < Math.abs(at - a) ? b : a));
  return at - (nearest + own.length);
}

/**
 * @section 6.4 (no anchor number)
 * Stimulus: scenario reference-unresolvable: one provider serves three
 * frames alike in kind, size and score, two full and, between them in
 * canonical order, a reference frame with no content whose content_ref
 * names a handle no host can resolve (1.0 defines no resolve operation,
 * and the handle's URI names nothing). Every frame's title opens with a
 * marker of its own (cgpmark-rt-NN), its citation label too
 * (cgpmark-rl-NN), and a full frame's content too (cgpmark-rc-NN), the rest
 * of each the same length in every frame, so that in a block a frame's
 * content stands at one distance from its title (or citation label), whichever
 * frame it is.
 * Precondition: the provider served the reference frame, and the host wrote
 * a block holding a full frame's content (else skip, naming {context}).
 * Findings, block by block: where the full frames' content stands at one
 * distance after their title's marker (or their citation label's), the
 * reference frame's title or citation label standing at that distance after
 * its own title (or citation label) is fabricated content and fails: the
 * host wrote the frame's metadata where it writes content, and it is written
 * there once more than a full frame's same field is written in the block (a
 * template that writes every frame's title twice, at that distance apart,
 * writes no more of it for the reference frame). The reference
 * frame absent from the block passes (it contributes nothing); present with
 * nothing of its own in that place passes. Where the full frames' content
 * stands at no one distance (no template to locate content in), it
 * informs.
 * Reading: "treat its contribution as empty rather than fabricating
 * content" forbids content made up for the frame; it does not forbid the
 * host naming the reference (its title, citation label or uri, rendered as
 * every frame's are), nor a note of the host's own that the content is not
 * available, which claims nothing about the source. So only the frame's own
 * metadata standing where content stands fails; a host's own words there,
 * or a title written elsewhere, are not judged (they cannot be told from a
 * citation). A host rendering no title or citation label for full frames
 * gives nothing to locate content by, and is not judged.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "S6-reference",
  title: "A reference frame the host cannot rehydrate contributes nothing",
  level: "MUST",
  requirement: "A host composing a reference frame it cannot rehydrate MUST treat its contribution as empty rather than fabricating content.",
  scenarios: [REFERENCE_UNRESOLVABLE],
  follows: "host:P5",
  score(input) {
    const v = input.scenario(REFERENCE_UNRESOLVABLE);
    if (!v.ran) return { skip: "scenario reference-unresolvable did not run" };
    const served = servedFrames(v);
    const refs = served.filter((f) => f.frame.representation === "reference" && f.frame.content === undefined);
    const full = served.filter((f) => typeof f.frame.content === "string" && markerOf(f.frame.content) !== undefined);
    if (refs.length === 0 || full.length === 0)
      return { skip: "scenario reference-unresolvable: the scenario provider served no reference frame beside full ones (the host sent no query it answered)" };
    const blocks = v.context().filter((b) => b.text !== undefined && full.some((f) => b.text!.includes(markerOf(f.frame.content)!)));
    if (blocks.length === 0) return { skip: noBlocks(input, [v], "reference-unresolvable") };
    const out: Evidence[] = [];
    for (const b of blocks) {
      const text = b.text!;
      for (const r of refs) {
        const at: At = { block: b.n, frame_id: r.frameId };
        const own = FIELDS.map(([key, field]) => ({ key, field, marker: markerOf(r.frame[key]) })).filter(
          (x): x is typeof x & { marker: string } => x.marker !== undefined,
        );
        if (own.every((x) => !text.includes(x.marker))) {
          out.push(F.say("left-out", at, { lines: [b.n] }));
          continue;
        }
        let located: Field | undefined;
        let found: Fabricated | undefined;
        for (const [key, anchor] of FIELDS) {
          const twins = full.filter((f) => text.includes(markerOf(f.frame.content)!));
          const ds = twins.map((f) => distance(text, f, key));
          const d = ds[0];
          if (d === undefined || ds.some((x) => x !== d)) continue;
          located ??= anchor;
          const mine = markerOf(r.frame[key]);
          if (!mine) continue;
          for (const start of places(text, mine)) {
            const slot = start + mine.length + d;
            const there = own.find((x) => text.startsWith(x.marker, slot));
            const twin = twins[0]!;
            // Written once more than a full frame's same field: not a template that repeats every frame's field at that distance.
            const twinField = markerOf(twin.frame[there?.key ?? "title"]);
            if (there && (twinField === undefined || places(text, there.marker).length > places(text, twinField).length)) {
              found = { ...at, field: there.field, marker: there.marker, anchor, offset: d, twin: twin.frameId, twin_marker: markerOf(twin.frame.content)! };
              break;
            }
          }
          if (found) break;
        }
        if (found) out.push(F.say("fabricated", found, { lines: [b.n, r.n] }));
        else if (located) out.push(F.say("empty", { ...at, anchor: located }, { lines: [b.n] }));
        else out.push(F.say("unlocated", at, { lines: [b.n] }));
      }
    }
    return out;
  },
});
