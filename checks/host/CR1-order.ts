import type { Evidence } from "../kit/check.ts";
import { differenceWords, firstDifference, frameSet, noBlocks, readBlocks, type ReadBlock } from "../kit/blocks.ts";
import { defineHostCheck } from "../kit/host.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { findings } from "../kit/findings.ts";
import { compareIdentity, hostProviderIds, identityWith, servedParam, servedSaid, type ServedFrame, type ServedParam } from "../kit/served.ts";
import {
  COMPOSE,
  COMPOSE_ONE,
  COMPOSE_ONE_REORDERED,
  COMPOSE_ONE_RESCORED,
  COMPOSE_REORDERED,
  COMPOSE_RESCORED,
  THREE_PROVIDERS,
} from "../../src/protocol/host-scenarios.ts";
import type { HostView } from "../../src/transcript/host.ts";

const READS = [COMPOSE, COMPOSE_REORDERED, COMPOSE_RESCORED, THREE_PROVIDERS, COMPOSE_ONE, COMPOSE_ONE_REORDERED, COMPOSE_ONE_RESCORED];
/** The scenarios that serve the same frames with the same scores in other arrival orders: several providers' (run by a host naming {provider2}), and one provider's. */
const ARRIVALS = [
  [COMPOSE, COMPOSE_REORDERED],
  [COMPOSE_ONE, COMPOSE_ONE_REORDERED],
] as const;

/** The part of the canonical order two frames break: the order of providers, one provider's frame ids, or a frame id's digests; or, keyed by no known ids, a provider's frames apart. */
type Part = "providers" | "frame-ids" | "digests" | "grouping";
function broken(a: ServedFrame, b: ServedFrame): Part {
  if (a.provider !== b.provider) return "providers";
  if (a.frameId !== b.frameId) return "frame-ids";
  return "digests";
}
const partSaid = (p: Part): string =>
  p === "providers"
    ? "provider ids compare first"
    : p === "frame-ids"
      ? "frame ids compare by code point, as bytes, not as words or numbers"
      : p === "digests"
        ? "the same frame id orders by content_digest, an absent one first"
        : "a provider's frames stand together, its provider id comparing first";

/** A provider of the scenario: its handshake name (null: none), and its place (from 0). */
type Provider = { name: string | null; provider: number };
const providerOf = (seq: readonly ServedFrame[], p: number): Provider => ({ name: seq.find((f) => f.provider === p)?.name ?? null, provider: p });
const providerSaid = (p: Provider): string => p.name ?? `provider ${p.provider + 1}`;

/** What the providers are keyed by: the usage reports' ids, one provider's frames alone, ids that sort them as the block shows (unnamed), or none that can. */
type Keying = { by: "ids" } | { by: "one" } | { by: "sorted"; providers: Provider[] } | { by: "none" };
const keyingSaid = (k: Keying): string =>
  k.by === "ids"
    ? "the provider ids its usage reports give"
    : k.by === "one"
      ? "one provider's frame ids (its usage reports name no provider id)"
      : k.by === "sorted"
        ? `provider ids that sort ${k.providers.map(providerSaid).join(" before ")} (its usage reports name none of them, so any keying of the providers may be the host's)`
        : "no keying of the providers (its usage reports name none of them): each provider's frames must stand together under any";

type Pair = { first: ServedParam; second: ServedParam };
const pairSaid = (p: Pair): string => `${servedSaid(p.first)} before ${servedSaid(p.second)}`;
const list = (fs: ServedParam[]): string => fs.map(servedSaid).join(", ");
/** Two blocks of one arrival pair: the scenarios (compose and compose-reordered, or compose-one and compose-one-reordered), their lines, how many frames. */
type Reordered = { base: string; other: string; compose: number; reordered: number; frames: number };
const pairOf = (p: Reordered): string => `scenarios ${p.base} (line ${p.compose}) and ${p.other} (line ${p.reordered})`;

/** Two blocks of the same frames, served in other orders: compose's and compose-reordered's, and where their orders first part. */
type Arrival = Reordered & { place: number; first: ServedParam; second: ServedParam; expected: ServedParam[]; actual: ServedParam[] };

/** §7's words that permit a host's own order, named beside context-reuse §1's MUST wherever the two meet. */
const POLICY = 'protocol-surface §7: "ranking by raw score and saying so. All are permitted", and "the strategy\'s order is what the budget packer walks"';

const F = findings({
  "follows-arrival": {
    says: (p: Arrival) =>
      `${pairOf(p)} compose the same ${count(p.frames, "frame")}, served with the same scores, each provider's answer in another order, and emit them in other orders: at place ${p.place + 1}, ${servedSaid(p.first)} in ${p.base}, ${servedSaid(p.second)} in ${p.other}. The order follows the order the frames arrived in, which neither canonical FrameId order (context-reuse §1) nor a ranking policy of the host's own (${POLICY}) gives: emit the same frames in the same order whatever order they come in, canonical FrameId order`,
    expected: (p: { base: string; expected: ServedParam[] }) => `${p.base}'s order again: ${list(p.expected)}`,
    actual: (p: { actual: ServedParam[] }) => list(p.actual),
  },
  "out-of-order": {
    cites: "MUST emit them in canonical order, so an unchanged frame set renders byte-identically across turns and across hosts",
    reading:
      'protocol-surface §7 lets a host order frames by a policy of its own ("ranking by raw score and saying so. All are permitted"; "the strategy\'s order is what the budget packer walks"), so an order other than the canonical one that does not follow arrival is context-reuse §1\'s breach and §7\'s permitted policy at once: where two sentences conflict, only what both forbid fails',
    level: "NONE",
    apart: ["part"],
    says: (
      p: Pair & {
        scenario: string;
        block: number;
        part: Part;
        keying: Keying;
        also: Pair[];
        more_pairs: number;
        expected: ServedParam[];
        actual: ServedParam[];
      },
    ) =>
      `scenario ${p.scenario}, line ${p.block}: the block emits ${pairSaid(p)}, and canonical FrameId order puts it after (${partSaid(p.part)}; provider ids: ${keyingSaid(p.keying)})${p.also.length > 0 ? `; also ${p.also.map(pairSaid).join(", and ")}${p.more_pairs > 0 ? `, and ${count(p.more_pairs, "pair")} more` : ""}` : ""}. context-reuse §1 asks for canonical order; ${POLICY}: where this is a ranking of the host's own, not an order that follows arrival, it is to be documented as the host's policy choice (F10), and canonical order is what renders byte-identically across hosts`,
    expected: (p: { expected: ServedParam[] }) => list(p.expected),
    actual: (p: { actual: ServedParam[] }) => list(p.actual),
  },
  canonical: {
    ok: true,
    says: (p: { scenario: string; block: number; frames: number; keying: Keying }) =>
      `scenario ${p.scenario}, line ${p.block}: the block emits its ${count(p.frames, "frame")} in canonical FrameId order, by ${keyingSaid(p.keying)}`,
  },
  "no-one-keying": {
    cites: "MUST emit them in canonical order, so an unchanged frame set renders byte-identically across turns and across hosts",
    reading:
      "the host's usage reports name no provider id, so a host that keys its providers anew for each query may order every block canonically by its own keys",
    level: "NONE",
    says: (p: { scenario: string; x: Provider; y: Provider; one: number; other: number | null }) =>
      `scenario ${p.scenario}: its blocks order the providers' frames in ways no one keying of the providers makes canonical (${providerSaid(p.x)}'s before ${providerSaid(p.y)}'s at line ${p.one}${p.other !== null ? `, the other way at line ${p.other}` : ", and a cycle through the others"}); its usage reports name no provider id, so a host keying its providers anew for each query cannot be told from one out of order; write {usage} so its provider ids are known`,
    expected: () => "one order of providers in every block of the scenario",
    actual: (p: { x: Provider; y: Provider; one: number; other: number | null }) =>
      `${providerSaid(p.x)} first at line ${p.one}${p.other !== null ? `, ${providerSaid(p.y)} first at line ${p.other}` : ""}`,
  },
  "reorder-identical": {
    ok: true,
    says: (p: Reordered) => `${pairOf(p)}: the same ${count(p.frames, "frame")}, served in other orders, render byte-identically`,
  },
  "reorder-differs": {
    cites: "MUST emit them in canonical order, so an unchanged frame set renders byte-identically across turns and across hosts",
    reading:
      "byte identity is the purpose the sentence gives its MUST, not the MUST itself, and something other than the order (a clock, a counter) may differ between the two blocks",
    level: "NONE",
    says: (p: Reordered & { difference: { at: number; a: string; b: string } }) =>
      `${pairOf(p)} compose the same ${count(p.frames, "frame")}, served with the same scores in other orders, and the blocks differ ${differenceWords(p.difference, p.base, p.other)}: an unchanged frame set is to render byte-identically`,
    expected: () => "the same bytes",
    actual: (p: { difference: { at: number } }) => `different from character ${p.difference.at}`,
  },
});

/**
 * One block's order against the canonical one. With the provider ids the
 * host's usage reports give (where they name each provider the block holds),
 * providers compare by those ids. Without them the host's keys are unknown:
 * providers are taken in the order the block first shows them, the one keying
 * under which the block can be canonical, so only a disorder within one
 * provider's frames, or two providers' frames interleaved, is a fault.
 */
function judgeOrder(v: HostView, block: ReadBlock, ids: Map<number, string>): { evidence: Evidence; order?: number[] } {
  const seq = block.frames.map((f) => f.frame);
  const providers = [...new Set(seq.map((f) => f.provider))];
  const known = providers.every((i) => ids.has(i));
  const rank = new Map(providers.map((p, i) => [p, i]));
  const byRank = (a: ServedFrame, b: ServedFrame): number => rank.get(a.provider)! - rank.get(b.provider)!;
  const cmp = known
    ? (a: ServedFrame, b: ServedFrame): number => compareIdentity(identityWith(a, ids.get(a.provider)!), identityWith(b, ids.get(b.provider)!))
    : (a: ServedFrame, b: ServedFrame): number => byRank(a, b) || compareIdentity(identityWith(a, ""), identityWith(b, ""));
  const expected = [...seq].sort(cmp);
  const inversions = seq.map((_, i) => i).filter((i) => i > 0 && cmp(seq[i - 1]!, seq[i]!) > 0);
  const inversion = inversions[0] ?? -1;
  const lines = [block.n, ...new Set(seq.map((f) => f.n))];
  const pair = (i: number): Pair => ({ first: servedParam(seq[i - 1]!), second: servedParam(seq[i]!) });
  const grouped = providers.every((p) => {
    const mine = seq.map((f, i) => (f.provider === p ? i : -1)).filter((i) => i !== -1);
    return mine[mine.length - 1]! - mine[0]! === mine.length - 1;
  });
  const keying: Keying = known
    ? { by: "ids" }
    : providers.length < 2
      ? { by: "one" }
      : grouped
        ? { by: "sorted", providers: providers.map((p) => providerOf(seq, p)) }
        : { by: "none" };
  const order = !known && grouped && providers.length >= 2 ? providers : undefined;
  if (inversion === -1) return { evidence: F.say("canonical", { scenario: v.name, block: block.n, frames: seq.length, keying }, { lines: [block.n] }), order };
  const [a, b] = [seq[inversion - 1]!, seq[inversion]!];
  return {
    evidence: F.say(
      "out-of-order",
      {
        scenario: v.name,
        block: block.n,
        ...pair(inversion),
        part: known || a.provider === b.provider ? broken(a, b) : "grouping",
        keying,
        also: inversions.slice(1, 3).map(pair),
        more_pairs: Math.max(0, inversions.length - 3),
        expected: expected.map(servedParam),
        actual: seq.map(servedParam),
      },
      { lines },
    ),
    order,
  };
}

function keyingConflict(v: HostView, orders: Array<{ n: number; order: number[]; seq: ServedFrame[] }>): Evidence | undefined {
  const before = new Map<string, number>();
  for (const { n, order } of orders) for (let i = 0; i < order.length; i++) for (let j = i + 1; j < order.length; j++) before.set(`${order[i]}<${order[j]}`, n);
  // A single keying exists when the "comes before" pairs have no cycle: take away, again and again, a provider nothing comes before.
  const left = new Set(orders.flatMap((o) => o.order));
  const edges = [...before.keys()].map((k) => k.split("<").map(Number) as [number, number]);
  for (let progress = true; progress && left.size > 0; ) {
    progress = false;
    for (const p of left)
      if (!edges.some(([x, y]) => y === p && left.has(x))) {
        left.delete(p);
        progress = true;
      }
  }
  if (left.size === 0) return undefined;
  const [x, y] = edges.find(([x, y]) => left.has(x) && left.has(y) && before.has(`${y}<${x}`)) ?? edges.find(([x, y]) => left.has(x) && left.has(y))!;
  const seq = orders.flatMap((o) => o.seq);
  const [one, other] = [before.get(`${x}<${y}`)!, before.get(`${y}<${x}`)];
  return F.say(
    "no-one-keying",
    { scenario: v.name, x: providerOf(seq, x), y: providerOf(seq, y), one, other: other ?? null },
    { lines: [...new Set(orders.map((o) => o.n))] },
  );
}

/**
 * compose and compose-reordered serve the same frames with the same scores,
 * each provider's answer in another order: their blocks (the first with the
 * first, and so on) that compose the same frames are compared. Frames in
 * other orders: the order follows arrival (a failure, both blocks folded into
 * it). The same order and other bytes: a warning. The same bytes: a pass.
 */
function arrival(names: [string, string], base: readonly ReadBlock[], other: readonly ReadBlock[]): { evidence: Evidence[]; folded: Set<ReadBlock> } {
  const evidence: Evidence[] = [];
  const folded = new Set<ReadBlock>();
  for (const [i, a] of base.entries()) {
    const b = other[i];
    // One frame has no order: two one-frame blocks alike show nothing of it.
    if (!b || a.frames.length < 2 || frameSet(a) !== frameSet(b)) continue;
    const lines = [a.n, b.n];
    const r: Reordered = { base: names[0], other: names[1], compose: a.n, reordered: b.n, frames: a.frames.length };
    const place = a.frames.findIndex((f, k) => f.marker !== b.frames[k]!.marker);
    if (place !== -1) {
      folded.add(a).add(b);
      const [x, y] = [a.frames[place]!.frame, b.frames[place]!.frame];
      evidence.push(
        F.say(
          "follows-arrival",
          {
            ...r,
            place,
            first: servedParam(x),
            second: servedParam(y),
            expected: a.frames.map((f) => servedParam(f.frame)),
            actual: b.frames.map((f) => servedParam(f.frame)),
          },
          { lines: [...lines, x.n, y.n] },
        ),
      );
    } else
      evidence.push(
        a.text === b.text
          ? F.say("reorder-identical", r, { lines })
          : F.say("reorder-differs", { ...r, difference: firstDifference(a.text, b.text) }, { lines }),
      );
  }
  return { evidence, folded };
}

/**
 * @section CR1-order
 * Stimulus: the context blocks the host wrote to {context} (CGP_CONTEXT_PATH)
 * in scenarios compose, compose-reordered, compose-rescored (two providers,
 * eight frames, room for all) and three-providers, run by a host that names
 * {provider2}, and compose-one, compose-one-reordered and compose-one-rescored
 * (one provider, seven frames, room for all), run by every host: a host is
 * judged on whichever it ran, both kinds where it ran both. Each served frame's
 * content holds one marker; a frame is in a block where its marker is, at the
 * place it first appears, so nothing is assumed of how a host renders a frame.
 * A marker two identities share (the same content from two providers) is left
 * out. Two sentences meet here: context-reuse §1, "MUST emit them in
 * canonical order", and protocol-surface §7, where any cross-provider order
 * is the host's policy ("ranking by raw score and saying so. All are
 * permitted"; "the strategy's order is what the budget packer walks").
 * Reading (docs/readings.md, rule 5): the run fails only what both forbid,
 * an order that follows arrival, and warns on an order one of them permits.
 * Findings. (a) compose and compose-reordered serve the same frames with the
 * same scores, each provider's answer in another order, and so do
 * compose-one and compose-one-reordered: where a pair's blocks
 * (the first with the first, and so on) compose the same frames in other
 * orders, the order follows arrival, which neither canonical order nor any
 * ranking of the host's own gives: a failure (those two blocks have that one
 * finding). The same order in other bytes warns, "so an unchanged frame set
 * renders byte-identically across turns" being the purpose the sentence
 * gives its MUST, and something other than the order (a clock, a counter)
 * may differ as well. (b) Each other block holding two or more frames: an
 * order other than the canonical one (provider id, then frame id, then
 * content_digest, absent first, each compared by code point) warns, citing
 * context-reuse §1 and naming §7: a deterministic order of the host's own
 * (by raw score, round-robin by rank, per-provider quotas, a sort of its
 * own) is §7's permitted policy, to be documented as the host's choice (F10).
 * The provider id is the host's routing key: the one its usage reports give
 * a provider, where they name each provider the block holds. A frame out of
 * order within one provider's frames, and an interleaving of two providers'
 * frames (no keying puts one provider's id both before and after another's),
 * are out of order; with the ids from the usage reports, two providers'
 * frames each together and in order but in the other provider order are too.
 * Reading: where no usage report gives the ids, the host's keys are unknown
 * (a host may key providers by position, "provider-1", or by anything else,
 * and say so only in its own format), so providers are taken in the order
 * the block gives them, the keying under which it can be canonical: an order
 * of providers is no fault, and the handshake names are not taken for the
 * ids. The blocks of one scenario (one host process) must then agree on one
 * keying: where no single order of the providers makes every block of the
 * scenario canonical, a warning (a host keying providers anew for each query
 * could), never a failure. Skip when the host wrote no block there, saying
 * which placeholder would enable the check.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "CR1-order",
  title: "The host composes frames in canonical FrameId order",
  level: "MUST",
  requirement:
    "A host that composes a set of frames into a single context block: MUST emit them in canonical order, so an unchanged frame set renders byte-identically across turns and across hosts (context-reuse §1). " +
    "The canonical composition order is the total order over FrameId given by comparing provider_id, then frame_id, then content_digest (Option<String>, None before Some).",
  scenarios: READS,
  needs: {
    writes: ["context"],
    work: "one block per scenario holding two frames or more; the usage reports ({usage}) give the provider ids, without them providers may be keyed as the block shows them",
  },
  follows: "host:UR1",
  score(input) {
    const views = READS.map((s) => input.scenario(s)).filter((v) => v.ran);
    const read = new Map(views.map((v) => [v.name, readBlocks(v)]));
    const compared: Evidence[] = [];
    const folded = new Set<ReadBlock>();
    for (const [base, other] of ARRIVALS) {
      const r = arrival([base.name, other.name], read.get(base.name)?.blocks ?? [], read.get(other.name)?.blocks ?? []);
      compared.push(...r.evidence);
      for (const b of r.folded) folded.add(b);
    }
    const out: Evidence[] = [];
    for (const v of views) {
      const r = read.get(v.name)!;
      const ids = hostProviderIds(v, r.served);
      const orders: Array<{ n: number; order: number[]; seq: ServedFrame[] }> = [];
      for (const block of r.blocks) {
        if (block.frames.length < 2) continue;
        const { evidence, order } = judgeOrder(v, block, ids);
        // A block whose order is shown to follow arrival has that one finding: its order is no ranking of the host's own.
        if (!folded.has(block)) out.push(evidence);
        if (order) orders.push({ n: block.n, order, seq: block.frames.map((f) => f.frame) });
      }
      const conflict = keyingConflict(v, orders);
      if (conflict) out.push(conflict);
    }
    out.push(...compared);
    if (out.length === 0) {
      const single = [...read.values()].flatMap((r) => r.blocks);
      if (single.length > 0)
        return {
          skip: `each of the host's ${count(single.length, "block")} in ${views.map((v) => v.name).join(", ")} (${lineWords(single.map((x) => x.n))}) holds one frame of those served there at most: the order a block emits frames in shows only in a block of two or more`,
        };
      return { skip: noBlocks(input, views, views.map((v) => v.name).join(", ") || READS.map((s) => s.name).join(", ")) };
    }
    return out;
  },
});
