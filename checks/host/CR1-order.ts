import type { Evidence } from "../kit/check.ts";
import { differenceWords, firstDifference, frameSet, noBlocks, readBlocks, type ReadBlock } from "../kit/blocks.ts";
import { defineHostCheck } from "../kit/host.ts";
import { count } from "../kit/host-evidence.ts";
import { compareIdentity, frameWords, hostProviderIds, identityWith, type ServedFrame } from "../kit/served.ts";
import { COMPOSE, COMPOSE_REORDERED, COMPOSE_RESCORED, THREE_PROVIDERS } from "../../src/protocol/host-scenarios.ts";
import type { HostView } from "../../src/transcript/host.ts";

const READS = [COMPOSE, COMPOSE_REORDERED, COMPOSE_RESCORED, THREE_PROVIDERS];

/** The part of the canonical order two frames break: one provider's frame ids (or digests), or the order of providers. */
function broken(a: ServedFrame, b: ServedFrame): string {
  if (a.provider !== b.provider) return "provider ids compare first";
  if (a.frameId !== b.frameId) return "frame ids compare by code point, as bytes, not as words or numbers";
  return "the same frame id orders by content_digest, an absent one first";
}

/** One block's order against the canonical one, with the provider ids the host's usage reports give (where they do). */
function judgeOrder(v: HostView, block: ReadBlock, ids: Map<number, string>): Evidence {
  const at = `scenario ${v.name}, line ${block.n}`;
  const seq = block.frames.map((f) => f.frame);
  const providers = [...new Set(seq.map((f) => f.provider))];
  const known = providers.every((i) => ids.has(i));
  const id = (f: ServedFrame): string => ids.get(f.provider) ?? f.name ?? "";
  const cmp = (a: ServedFrame, b: ServedFrame): number => compareIdentity(identityWith(a, id(a)), identityWith(b, id(b)));
  const expected = [...seq].sort(cmp);
  const list = (fs: ServedFrame[]): string => fs.map(frameWords).join(", ");
  const inversions = seq.map((_, i) => i).filter((i) => i > 0 && cmp(seq[i - 1]!, seq[i]!) > 0);
  const inversion = inversions[0] ?? -1;
  const lines = [block.n, ...new Set(seq.map((f) => f.n))];
  const more = inversions.slice(1, 3).map((i) => `${frameWords(seq[i - 1]!)} before ${frameWords(seq[i]!)}`);
  const rest = inversions.length > 1 ? `; also ${more.join(", and ")}${inversions.length > 3 ? `, and ${count(inversions.length - 3, "pair")} more` : ""}` : "";
  const whose = known ? "the provider ids its usage reports give" : "the providers' handshake names as provider ids (its usage reports name none of them)";
  if (inversion === -1)
    return { ok: true, message: `${at}: the block emits its ${count(seq.length, "frame")} in canonical FrameId order, by ${whose}`, lines: [block.n] };
  const [a, b] = [seq[inversion - 1]!, seq[inversion]!];
  // Across providers with no id known: canonical order for some ids if each provider's frames stand together, each in order.
  const grouped =
    providers.every((p) => {
      const mine = seq.map((f, i) => (f.provider === p ? i : -1)).filter((i) => i !== -1);
      return mine[mine.length - 1]! - mine[0]! === mine.length - 1;
    }) && seq.every((f, i) => i === 0 || seq[i - 1]!.provider !== f.provider || cmp(seq[i - 1]!, f) <= 0);
  const tentative = !known && grouped;
  return {
    ok: false,
    ...(tentative ? { level: "NONE" as const } : {}),
    message: tentative
      ? `${at}: the block emits each provider's frames together and in order, but ${a.name ?? "one provider"}'s before ${b.name ?? "another"}'s: canonical only if the host's provider ids sort the other way from the providers' handshake names; write {usage} so its provider ids are known`
      : `${at}: the block emits ${frameWords(a)} before ${frameWords(b)}, and canonical FrameId order puts it after (${broken(a, b)}; provider ids: ${whose})${rest}`,
    expected: list(expected),
    actual: list(seq),
    lines,
  };
}

/**
 * @section CR1-order
 * Stimulus: the context blocks the host wrote to {context} (CGP_CONTEXT_PATH)
 * in scenarios compose, compose-reordered, compose-rescored (two providers,
 * eight frames, room for all) and three-providers. Each served frame's
 * content holds one marker; a frame is in a block where its marker is, at the
 * place it first appears, so nothing is assumed of how a host renders a frame.
 * A marker two identities share (the same content from two providers) is left
 * out. Findings. (a) Each block holding two or more frames: their order must
 * be the canonical one: provider id, then frame id, then content_digest
 * (absent first), each compared by code point. The provider id is the host's
 * routing key: the one its usage reports give a provider, where they name
 * each provider the block holds; else its handshake name. A frame out of
 * order within one provider's frames fails, as does an interleaving of two
 * providers' frames; two providers' frames each together and in order but in
 * the other provider order fails where the usage reports give the ids, and
 * warns where the ids are only taken to be the handshake names (a host may key
 * providers otherwise). (b) compose and compose-reordered serve the same frames
 * with the same scores, in other orders: where their blocks (the first with
 * the first, and so on) compose the same frames, bytes that differ warn, "so
 * an unchanged frame set renders byte-identically across turns" being the
 * purpose the sentence gives its MUST, and something other than the order
 * (a clock, a counter) may differ as well. Skip when the host wrote no block
 * there, saying which placeholder would enable the check.
 */
export default defineHostCheck({
  anchor: "CR1-order",
  title: "The host composes frames in canonical FrameId order",
  level: "MUST",
  requirement:
    "A host that composes a set of frames into a single context block: MUST emit them in canonical order, so an unchanged frame set renders byte-identically across turns and across hosts (context-reuse §1). " +
    "The canonical composition order is the total order over FrameId given by comparing provider_id, then frame_id, then content_digest (Option<String>, None before Some).",
  scenarios: READS,
  follows: "host:UR1",
  score(input) {
    const views = READS.map((s) => input.scenario(s)).filter((v) => v.ran);
    const read = new Map(views.map((v) => [v.name, readBlocks(v)]));
    const out: Evidence[] = [];
    for (const v of views) {
      const r = read.get(v.name)!;
      const ids = hostProviderIds(v, r.served);
      for (const block of r.blocks) if (block.frames.length >= 2) out.push(judgeOrder(v, block, ids));
    }
    const base = read.get(COMPOSE.name)?.blocks ?? [];
    const other = read.get(COMPOSE_REORDERED.name)?.blocks ?? [];
    for (const [i, a] of base.entries()) {
      const b = other[i];
      if (!b || frameSet(a) !== frameSet(b)) continue;
      const lines = [a.n, b.n];
      if (a.text === b.text)
        out.push({
          ok: true,
          message: `scenarios compose (line ${a.n}) and compose-reordered (line ${b.n}): the same ${count(a.frames.length, "frame")}, served in other orders, render byte-identically`,
          lines,
        });
      else
        out.push({
          ok: false,
          level: "NONE",
          message: `scenarios compose (line ${a.n}) and compose-reordered (line ${b.n}) compose the same ${count(a.frames.length, "frame")}, served with the same scores in other orders, and the blocks differ ${differenceWords(firstDifference(a.text, b.text), "compose", "compose-reordered")}: an unchanged frame set is to render byte-identically`,
          expected: "the same bytes",
          actual: `different from character ${firstDifference(a.text, b.text).at}`,
          lines,
        });
    }
    if (out.length === 0) return { skip: noBlocks(input, views, READS.map((s) => s.name).join(", ")) };
    return out;
  },
});
