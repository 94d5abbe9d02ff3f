/**
 * U2's last clause, read from a host's context blocks: "if it re-emits the
 * frame it MUST preserve the original kind string verbatim". A frame is in a
 * block where its marker is (MARKER); the text between one frame's marker
 * and the next is where a host that writes a kind beside its frame writes
 * it, before its content (a header: the gap before the marker) or after it
 * (a footer: the gap after). Served text (content, title, citation, uri)
 * is taken out of each gap first, so that a kind word in a frame's own
 * content never reads as a kind the host wrote. Pure, like the checks.
 *
 * Reading (the one that never fails an honest host): a host shows kinds
 * where every frame of a base kind in the block has its kind, in the very
 * string served, in its header gap (or every one in its footer gap); only
 * then is the frame of the unknown kind held to having its own kind string
 * there. A host that shows no kinds, or shows them its own way (upper-cased,
 * translated, in a table apart from the frames), is not judged: rendering
 * is not re-emitting, and nothing shows what it would re-emit. The unknown
 * kind found in either gap beside its frame passes, whichever way the host
 * shows the others.
 */
import type { Evidence } from "./check.ts";
import { findings } from "./findings.ts";
import { show } from "./show.ts";
import { BASE_KINDS } from "../../src/protocol/caps.ts";
import { framesIn, type Obj } from "../../src/protocol/envelope.ts";
import { markersIn, PLACEHOLDERS } from "../../src/protocol/host-scenarios.ts";
import type { HostView } from "../../src/transcript/host.ts";

const BASE: readonly string[] = BASE_KINDS;

/** How often `word` stands in `text` as a whole word (a kind may hold letters, digits, `_`, `-` and `:`). */
function wordCount(text: string, word: string, flags = "g"): number {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return (text.match(new RegExp(`(?<![\\w:-])${escaped}(?![\\w:-])`, flags)) ?? []).length;
}

/** One frame served in the scenario, by the marker its content holds. */
type Served = { marker: string; kind: unknown; texts: string[] };

function servedIn(v: HostView): Served[] {
  const out: Served[] = [];
  for (const a of v.answered("frames"))
    for (const f of framesIn(a.env)) {
      const content = typeof f.content === "string" ? f.content : "";
      const m = markersIn(content);
      if (m.length !== 1 || out.some((s) => s.marker === m[0])) continue;
      const [before, after] = content.split(m[0]!, 2) as [string, string];
      const texts = [before, after, ...(["title", "citation_label", "uri"] as const).map((k) => f[k]).filter((x): x is string => typeof x === "string")];
      out.push({ marker: m[0]!, kind: (f as Obj).kind, texts: texts.filter((t) => t.trim().length > 0) });
    }
  return out;
}

type Where = { scenario: string; block: number; marker: string; kind: string };
const where = (p: Where): string => `scenario ${p.scenario}, ${PLACEHOLDERS.context} line ${p.block}`;

export const kinds = findings({
  "kind-kept": {
    ok: true,
    says: (p: Where & { shown: string[] }) =>
      `${where(p)}: the block shows each frame's kind beside it (${p.shown.map((k) => show(k)).join(", ")}), and the frame of the unknown kind (${p.marker}) beside its kind ${show(p.kind)}, verbatim`,
  },
  "kind-rewritten": {
    says: (p: Where & { shown: string[]; instead: string[] }) =>
      `${where(p)}: the block shows each frame's kind beside it (${p.shown.map((k) => show(k)).join(", ")}), but not the unknown kind ${show(p.kind)} beside its frame (${p.marker})${p.instead.length > 0 ? `: it shows ${p.instead.map((k) => show(k)).join(", ")} there instead` : ""}; a host that re-emits a frame of an unknown kind keeps the kind string as served, not a kind of its own`,
    expected: (p: Where) => `${show(p.kind)} beside ${p.marker}`,
    actual: (p: { instead: string[] }) => (p.instead.length > 0 ? p.instead.map((k) => show(k)).join(", ") : "no kind"),
  },
  "kinds-not-shown": {
    ok: true,
    says: (p: { scenario: string; blocks: number[] }) =>
      `scenario ${p.scenario}: the host's blocks holding the frame of the unknown kind (${PLACEHOLDERS.context} line${p.blocks.length === 1 ? "" : "s"} ${p.blocks.join(", ")}) show no kind beside each frame as served, so whether it keeps an unknown kind verbatim where it re-emits a frame is not judged`,
  },
});

/**
 * The kind kept, block by block: each block of `v` holding the marker of a
 * frame served with kind `unknown`, where it shows the base kinds beside
 * their frames. Empty where no block holds such a frame.
 */
export function kindsKept(v: HostView, unknown: string): Evidence[] {
  const served = servedIn(v);
  const odd = served.filter((s) => s.kind === unknown);
  if (odd.length === 0) return [];
  const out: Evidence[] = [];
  const unshown: number[] = [];
  for (const b of v.context()) {
    if (b.text === undefined) continue;
    const text = b.text;
    const at = served
      .map((s) => ({ s, i: text.indexOf(s.marker) }))
      .filter((x) => x.i >= 0)
      .sort((x, y) => x.i - y.i);
    const u = at.findIndex((x) => x.s.kind === unknown);
    if (u < 0) continue;
    // gaps[k]: the text between the k-th marker and the next (gaps[0]: before the first), served text taken out.
    const cut = (from: number, to: number): string => served.flatMap((s) => s.texts).reduce((g, t) => g.split(t).join(" "), text.slice(from, to));
    const gaps = at.map((x, k) => cut(k === 0 ? 0 : at[k - 1]!.i + at[k - 1]!.s.marker.length, x.i));
    gaps.push(cut(at.at(-1)!.i + at.at(-1)!.s.marker.length, text.length));
    const knownAt = at
      .map((x, k) => ({ kind: x.s.kind, k }))
      .filter((x): x is { kind: string; k: number } => typeof x.kind === "string" && BASE.includes(x.kind));
    const header = knownAt.length > 0 && knownAt.every((x) => wordCount(gaps[x.k]!, x.kind) > 0);
    const footer = knownAt.length > 0 && knownAt.every((x) => wordCount(gaps[x.k + 1]!, x.kind) > 0);
    if (!header && !footer) {
      unshown.push(b.n);
      continue;
    }
    const p = { scenario: v.name, block: b.n, marker: at[u]!.s.marker, kind: unknown, shown: [...new Set(knownAt.map((x) => x.kind))] };
    const beside = [gaps[u]!, gaps[u + 1]!];
    if (beside.some((g) => wordCount(g, unknown) > 0)) {
      out.push(kinds.say("kind-kept", p, { lines: [b.n] }));
      continue;
    }
    // What stands where its kind would: a base kind, "unknown", or the kind in another case, in the gap the host's style puts it.
    const slot = header ? gaps[u]! : gaps[u + 1]!;
    const instead = [...BASE, "unknown"].filter((k) => wordCount(slot, k) > 0);
    const cased = slot.match(new RegExp(`(?<![\\w:-])${unknown.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w:-])`, "gi")) ?? [];
    out.push(kinds.say("kind-rewritten", { ...p, instead: [...new Set([...cased, ...instead])] }, { lines: [b.n] }));
  }
  if (out.length === 0 && unshown.length > 0) out.push(kinds.say("kinds-not-shown", { scenario: v.name, blocks: unshown }, { lines: unshown }));
  return out;
}
