/**
 * What a host did with the frames of the reuse scenario across its turns:
 * the frames of its first answer, each with its marker, whether a verify
 * asked about it and the verdict it got, and whether an answer served it
 * again; and the blocks it composed, each with the stored copies of those
 * frames it holds. A frame is in a block where its marker is (MARKER).
 * Pure, like the checks.
 */
import { isObj, type Obj } from "../../src/protocol/envelope.ts";
import { markersIn, PLACEHOLDERS, REUSE } from "../../src/protocol/host-scenarios.ts";
import type { HostEnvelope, HostView } from "../../src/transcript/host.ts";
import type { Evidence } from "./check.ts";
import type { HostScoreInput } from "./host.ts";
import { noBlocks } from "./blocks.ts";
import { findings, type Param } from "./findings.ts";
import { count, lineWords } from "./host-evidence.ts";
import { show } from "./show.ts";

/** One frame of the host's first answer in reuse. */
export interface FirstFrame {
  marker: string;
  frameId: string;
  digest: string | undefined;
  /** Whether a verify the host sent carried its identity (its frame id and content_digest). */
  requested: boolean;
  /** The verdict that came back for it, and the line of the verified answer; absent: none did. */
  verdict?: { status: unknown; n: number };
  /** The verified answer (or error) to the first verify that asked about it and gave it no verdict. */
  silentAt?: number;
  /** The lines of the answers after the first that served its marker again: a fresh copy, not the stored one. */
  again: number[];
}

/**
 * A block the reuse checks judge, with what it shows of when it was
 * composed: every block after the host's first, and the first too where it
 * holds a frame first served by an answer after the first (a host that
 * composes once, at the end, after its verify and a query again).
 */
export interface LaterBlock {
  n: number;
  /** Which block it is, from 1. */
  index: number;
  text: string;
  /** The first-answer frames whose stored copy it holds: their marker is in it, and no answer served it again. */
  stored: FirstFrame[];
  /** Every marker of the scenario's frames it holds. */
  markers: string[];
  /**
   * The latest line of an answer that first served a marker this block holds:
   * the block was composed after that answer came. The first answer's line
   * where it holds only markers the first answer served.
   */
  after: number;
  /** A marker first served at `after`, where that is later than the first answer. */
  afterMarker?: string;
}

export interface ReuseRead {
  view: HostView;
  /** The first answer with frames. */
  first: HostEnvelope;
  frames: FirstFrame[];
  /** Every verify the host sent. */
  verifies: HostEnvelope[];
  /** Every block the host wrote, in order (lines of {context} holding a text). */
  blocks: Array<{ n: number; text: string }>;
  /** The blocks judged: every one after the first, and the first where it shows it was composed after a later answer. */
  later: LaterBlock[];
}

/** The identity a verify's request.frames entry, or a verdict's frame, names: frame id and content_digest (absent or null: none). */
const idOf = (v: unknown): { frameId: string; digest: string | undefined } | undefined =>
  isObj(v) && typeof v.frame_id === "string" ? { frameId: v.frame_id, digest: typeof v.content_digest === "string" ? v.content_digest : undefined } : undefined;

const framesOf = (env: Obj): Obj[] => {
  const result = isObj(env.result) ? env.result : {};
  return Array.isArray(result.frames) ? result.frames.filter(isObj) : [];
};

const markerOf = (f: Obj): string | undefined => {
  const m = typeof f.content === "string" ? markersIn(f.content) : [];
  return m.length === 1 ? m[0] : undefined;
};

/** How the host's reuse can be judged in reuse, or why it cannot (a skip's words). */
export function readReuse(input: HostScoreInput): ReuseRead | string {
  const v = input.scenario(REUSE);
  if (!v.ran) return `scenario reuse did not run${v.record?.skipped ? `: ${v.record.skipped}` : ""}`;
  const answers = v.answered("frames");
  const first = answers[0];
  if (!first) return "the host got no frames in reuse: it held nothing to reuse";
  const sent = v.sent();
  const replies = v.answered();
  const verifies = sent.filter((e) => e.env.type === "verify");
  /** Each verify with the answer it got: the first verified or error after it. */
  const answered = verifies.map((q) => ({ q, a: replies.find((r) => r.n > q.n && (r.env.type === "verified" || r.env.type === "error")) }));
  const frames: FirstFrame[] = [];
  for (const f of framesOf(first.env)) {
    const marker = markerOf(f);
    if (marker === undefined) continue;
    const frameId = String(f.id);
    const digest = typeof f.content_digest === "string" ? f.content_digest : undefined;
    const same = (x: unknown): boolean => {
      const id = idOf(x);
      return id !== undefined && id.frameId === frameId && id.digest === digest;
    };
    let verdict: FirstFrame["verdict"];
    let silentAt: number | undefined;
    let requested = false;
    for (const { q, a } of answered) {
      const request = isObj(q.env.request) && Array.isArray(q.env.request.frames) ? q.env.request.frames : [];
      if (!request.some(same)) continue;
      requested = true;
      if (!a) continue;
      const response = a.env.type === "verified" && isObj(a.env.response) ? a.env.response : {};
      const got = (Array.isArray(response.verdicts) ? response.verdicts : []).find((x) => isObj(x) && same(x.frame)) as Obj | undefined;
      if (got && verdict === undefined) verdict = { status: got.status, n: a.n };
      else if (!got && silentAt === undefined) silentAt = a.n;
    }
    const again = answers.filter((a) => a !== first && framesOf(a.env).some((g) => markerOf(g) === marker)).map((a) => a.n);
    frames.push({ marker, frameId, digest, requested, ...(verdict ? { verdict } : {}), ...(silentAt !== undefined ? { silentAt } : {}), again });
  }
  /** The line of the first answer that served each marker. */
  const firstServed = new Map<string, number>();
  for (const a of answers) for (const g of framesOf(a.env)) if (markerOf(g) && !firstServed.has(markerOf(g)!)) firstServed.set(markerOf(g)!, a.n);
  const blocks = v
    .context()
    .filter((b): b is typeof b & { text: string } => b.text !== undefined)
    .map((b) => ({ n: b.n, text: b.text }));
  const read = blocks.map((b, i): LaterBlock => {
    const markers = [...firstServed.keys()].filter((m) => b.text.includes(m));
    const after = Math.max(first.n, ...markers.map((m) => firstServed.get(m)!));
    const afterMarker = after > first.n ? markers.find((m) => firstServed.get(m) === after) : undefined;
    return {
      n: b.n,
      index: i + 1,
      text: b.text,
      markers,
      stored: frames.filter((f) => f.again.length === 0 && b.text.includes(f.marker)),
      after,
      ...(afterMarker ? { afterMarker } : {}),
    };
  });
  // The first block is the first turn's, composed before any verdict could be had, unless it holds a frame a later answer first served.
  const later = read.filter((b) => b.index > 1 || b.afterMarker !== undefined);
  return { view: v, first, frames, verifies, blocks, later };
}

/**
 * Why a check of the host's later turn cannot judge it, where no block shows
 * it was composed after the first answer (the host composed once, holding
 * only what the first answer served) or none judged holds a frame of reuse;
 * undefined where it can.
 */
export function laterBlocksMissing(input: HostScoreInput, r: ReuseRead): string | undefined {
  if (r.blocks.length === 0) return noBlocks(input, [r.view], REUSE.name);
  if (r.later.length === 0)
    return `the host composed once in reuse (${PLACEHOLDERS.context} line ${r.blocks[0]!.n}), and that block holds only frames its first answer served (line ${r.first.n}): nothing shows it was composed after a verify or a later query. One block is enough where it holds a frame a query after the verify serves: query again after the verify before composing, or compose again after the verify and append that block too`;
  if (r.later.every((b) => b.markers.length === 0))
    return `the host's ${count(r.later.length, "later block")} in reuse (${PLACEHOLDERS.context} ${lineWords(r.later.map((b) => b.n))}) ${r.later.length === 1 ? "holds" : "hold"} no frame served there: what it reused cannot be told`;
  return undefined;
}

/** The reuse scenario as the reuse checks read it, or why they skip: it did not run, or no block came after the first. */
export function reuseOrSkip(input: HostScoreInput): ReuseRead | string {
  const r = readReuse(input);
  return typeof r === "string" ? r : (laterBlocksMissing(input, r) ?? r);
}

/** A first-answer frame as a param: its id, marker, whether it bore a content_digest, and what verify said of it. */
export type Held = { frame_id: string; marker: string; digest: boolean; status?: Param; verdict_at?: number; silent_at?: number };
export function heldParam(f: FirstFrame): Held {
  return {
    frame_id: f.frameId,
    marker: f.marker,
    digest: f.digest !== undefined,
    ...(f.verdict ? { status: f.verdict.status as Param, verdict_at: f.verdict.n } : {}),
    ...(f.silentAt !== undefined ? { silent_at: f.silentAt } : {}),
  };
}
/** A held frame in words: "fixture:changed (cgpmark-re-02)". */
export const heldSaid = (h: Held): string => `${show(h.frame_id, 60)} (${h.marker}${h.digest ? "" : ", no content_digest"})`;

/** A first-answer frame in words: "fixture:changed (cgpmark-re-02)". */
export const heldWords = (f: FirstFrame): string => heldSaid(heldParam(f));

/** A judged block as a param: which it is (from 1) and its line. */
export type Block = { index: number; line: number };
export const blockParam = (b: LaterBlock): Block => ({ index: b.index, line: b.n });
/** A block in words: "the second block ({context} line 30)". */
export const blockSaid = (b: Block): string =>
  `${b.index === 1 ? "the first block" : b.index === 2 ? "the second block" : b.index === 3 ? "the third block" : `block ${b.index}`} (${PLACEHOLDERS.context} line ${b.line})`;
export const blockWords = (b: LaterBlock): string => blockSaid(blockParam(b));

/**
 * The rules judgeStored reads a later block by, each with its words: why a
 * frame's stored copy may not be reused, what the block must show it came
 * after, what the host should do instead, and why a block that shows
 * nothing that late only warns (default: nothing else shows when it was
 * composed).
 */
const RULES = {
  /** host:V2: an identity that came back with no verdict. */
  silence: {
    what: (h: Held) => `${heldSaid(h)}, asked about and given no verdict (line ${h.silent_at})`,
    since: "that verified answer",
    fix: "silence is not validity: take it as unknown and fetch the frame again",
    unshown: undefined,
  },
  /** host:V3: a verdict neither valid nor stale nor gone. */
  "not-valid": {
    what: (h: Held) => `${heldSaid(h)}, which verify called ${show(h.status, 30)} (line ${h.verdict_at})`,
    since: "that verdict",
    fix: "only a valid verdict permits reuse: fetch the frame again",
    unshown: undefined,
  },
  /** host:V4: a verdict of stale or gone. */
  condemned: {
    what: (h: Held) => `${heldSaid(h)}, which verify called ${String(h.status)} (line ${h.verdict_at})`,
    since: "that verdict",
    fix: "a stale frame is fetched again (its new content is another frame), a gone one dropped",
    unshown: undefined,
  },
  /** host:D3: a frame served without a content_digest. */
  digestless: {
    what: (h: Held, first: number) => `${heldSaid(h)}, served at line ${first} without a content_digest`,
    since: "a later query's answer",
    fix: "a frame with no content_digest cannot be revalidated: query it again, and compose its fresh copy",
    unshown: "so no later query shows in it, and reuse among one query's compositions is not across queries: this warns",
  },
} as const;
export type Rule = keyof typeof RULES;

/** The frames one rule picks, in words. */
type Picked = { rule: Rule; frames: Held[]; first: number };
const whats = (p: Picked): string => p.frames.map((h) => RULES[p.rule].what(h, p.first)).join("; ");
type Stored = Picked & { block: Block; markers: string[]; since: number; after: number; after_marker: string | null };
const copies = (p: Stored): string =>
  `scenario reuse, ${blockSaid(p.block)}: it holds ${p.frames.length === 1 ? "the stored copy of" : `the stored copies of ${p.frames.length} frames:`} ${whats(p)}, ${p.frames.length === 1 ? "not served again" : "none served again"}`;
const storedExpected = (p: Stored): string => `no stored copy of ${p.markers.join(", ")} in a block composed after ${RULES[p.rule].since}`;
const storedActual = (p: Stored): string => `${p.markers.join(", ")} in ${PLACEHOLDERS.context} line ${p.block.line}`;

/** The findings of judgeStored: a check that uses it declares this table beside its own. */
export const reuse = findings({
  "stored-copy": {
    says: (p: Stored) =>
      `${copies(p)}; it was composed after ${RULES[p.rule].since}, since it holds ${p.after_marker}, first served at line ${p.after}; ${RULES[p.rule].fix}`,
    expected: storedExpected,
    actual: storedActual,
  },
  "stored-copy-unshown": {
    level: "NONE",
    reading:
      "the block holds no frame first served after the moment that should have changed the host's hand, and the blocks are read once the host has ended, so nothing shows the stored copy was composed after that moment (or for a later query)",
    says: (p: Stored) =>
      `${copies(p)}; nothing in it shows it was composed after ${RULES[p.rule].since} (it holds no frame first served later than line ${p.since}), ${RULES[p.rule].unshown ?? "and nothing else shows when it was composed, so this warns: compose each turn's block once, after that turn's verify and queries"}; ${RULES[p.rule].fix}`,
    expected: storedExpected,
    actual: storedActual,
  },
  "no-stored-copy": {
    ok: true,
    says: (p: Picked & { blocks: number[] }) =>
      `scenario reuse: ${p.blocks.length === 1 ? "the block" : `the ${p.blocks.length} blocks`} composed after the first answer (${PLACEHOLDERS.context} ${lineWords(p.blocks)}) ${p.blocks.length === 1 ? "holds" : "hold"} no stored copy of ${whats(p)}`,
  },
});

/** What a rule over the host's later blocks is about, for judgeStored. */
export interface StoredRule {
  /** The first-answer frames whose stored copy the rule forbids in a later block. */
  picked: FirstFrame[];
  /** The line after which a composition holding that copy breaks the rule (the verdict, or the first answer). */
  since(f: FirstFrame): number;
  /** Which rule it is, for the words of its findings. */
  rule: Rule;
}

/**
 * Each block judged (after the first, or the first where it holds a frame a
 * later answer first served) holding the stored copy of a frame the rule picks: a
 * failure where the block shows it was composed after the rule's line (it
 * holds a frame first served after that line), else a warning, since nothing
 * in it shows when it was composed (the blocks are read once the host has
 * ended). One finding per block, naming every such frame. A pass where no
 * block judged holds one.
 */
export function judgeStored(r: ReuseRead, rule: StoredRule): Evidence[] {
  const out: Evidence[] = [];
  const picked = new Set(rule.picked);
  for (const b of r.later) {
    const held = b.stored.filter((f) => picked.has(f));
    if (held.length === 0) continue;
    const since = Math.max(...held.map((f) => rule.since(f)));
    const shown = b.after > since && b.afterMarker !== undefined;
    out.push(
      reuse.say(
        shown ? "stored-copy" : "stored-copy-unshown",
        {
          rule: rule.rule,
          frames: held.map(heldParam),
          first: r.first.n,
          block: blockParam(b),
          markers: held.map((f) => f.marker),
          since,
          after: b.after,
          after_marker: b.afterMarker ?? null,
        },
        { lines: [...new Set([b.n, r.first.n, ...held.map((f) => rule.since(f)), ...(shown ? [b.after] : [])])].sort((x, y) => x - y) },
      ),
    );
  }
  if (out.length === 0) {
    const judged = r.later.filter((b) => b.markers.length > 0);
    out.push(
      reuse.say(
        "no-stored-copy",
        { rule: rule.rule, frames: rule.picked.map(heldParam), first: r.first.n, blocks: judged.map((b) => b.n) },
        { lines: [...new Set([r.first.n, ...rule.picked.map((f) => rule.since(f)), ...judged.map((b) => b.n)])].sort((x, y) => x - y) },
      ),
    );
  }
  return out;
}
