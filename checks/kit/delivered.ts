/**
 * The differentials of U1 and U2 that see what the host delivered, not only
 * how it ended: the frames its context blocks hold in a scenario that differs
 * from lock-step by one thing (unknown members, unknown vocabulary), against
 * those they hold in lock-step, found by the marker each frame's content
 * carries (the same document carries the same marker in each); and whether
 * it carried on after that answer where, in lock-step, it carried on after
 * its first. Pure, like the checks.
 */
import type { Evidence } from "./check.ts";
import { readBlocks } from "./blocks.ts";
import { count, lineWords } from "./host-evidence.ts";
import { markedFrames, type ServedFrame } from "./served.ts";
import { framesIn } from "../../src/protocol/envelope.ts";
import { markersIn } from "../../src/protocol/host-scenarios.ts";
import type { HostEnvelope, HostView } from "../../src/transcript/host.ts";

export interface Differential {
  /** What the scenario differs from lock-step by, in words ("an unknown kind and rel"). */
  difference: string;
  /** The frames that carry the difference themselves (the unknown kind or rel); undefined: none does, the answer as a whole carries it. */
  touched?: (f: ServedFrame) => boolean;
  /** What a frame that carries it is, in words ("of an unknown kind or rel"). */
  touchedWords?: string;
  /** The answer that first carried the difference to the host. */
  answer: HostEnvelope;
}

const listed = (markers: readonly string[]): string => (markers.length <= 4 ? markers.join(", ") : `${markers.slice(0, 4).join(", ")}, …`);

/**
 * Block by block (the i-th holding a served frame in lock-step against the
 * i-th in the scenario), the frames lock-step's held that the scenario's
 * must hold too: none of those that carry no difference fails (the answer
 * was dropped whole: failed to deserialise, or rejected); some of them
 * warns (a host's own selection may differ); one that carries the
 * difference left out warns. Where the host writes blocks but lock-step's
 * hold no served frame (no marker: its blocks hold no frame content), one
 * finding at info level says that what it delivered cannot be compared, so
 * a check that sees only how it ended is no clean pass; nothing where it
 * wrote no block in either scenario.
 */
export function sameDelivery(base: HostView, v: HostView, d: Differential): Evidence[] {
  const before = readBlocks(base).blocks;
  if (before.length === 0) {
    const theirs = base.context();
    const here = v.context();
    if (theirs.length === 0 && here.length === 0) return [];
    const heldHere = readBlocks(v).blocks.length > 0;
    return [
      {
        ok: false,
        level: "MAY",
        message: `scenario ${v.name}: what the host delivered after an answer (line ${d.answer.n}) that differs from lock-step's only by ${d.difference} cannot be compared with lock-step's: ${
          theirs.length === 0
            ? "in lock-step it wrote no block"
            : `lock-step's ${theirs.length === 1 ? "block" : `${theirs.length} blocks`} (${lineWords(theirs.map((b) => b.n))}) hold${theirs.length === 1 ? "s" : ""} no frame content (no marker of a frame served there)`
        }${heldHere ? "" : `, nor ${here.length === 0 ? "does any block here, for it wrote none" : `${here.length === 1 ? "does its block" : `do its ${here.length} blocks`} here (${lineWords(here.map((b) => b.n))})`}`}, so only how it ended is compared; a block holding each frame's content would show what it composed`,
        expected: "blocks holding the content of the frames served, in both scenarios",
        actual: `no marker of a served frame in ${theirs.length === 0 ? "any block of lock-step (none written)" : "lock-step's blocks"}`,
        lines: [...theirs.map((b) => b.n), ...here.map((b) => b.n), d.answer.n],
      },
    ];
  }
  const now = readBlocks(v);
  const servedHere = markedFrames(now.served);
  const touched = (m: string): boolean => d.touched !== undefined && servedHere.has(m) && d.touched(servedHere.get(m)!);
  const out: Evidence[] = [];
  for (const [i, b] of before.entries()) {
    const expected = b.frames
      .map((f) => f.marker)
      .filter((m) => servedHere.has(m))
      .sort();
    if (expected.length === 0) continue;
    const plain = expected.filter((m) => !touched(m));
    const odd = expected.filter(touched);
    const got = now.blocks[i];
    const held = new Set(got?.frames.map((f) => f.marker) ?? []);
    const where = got ? `scenario ${v.name}, line ${got.n}` : `scenario ${v.name}`;
    const theirs = `lock-step's ${i === 0 ? "first block" : `block ${i + 1}`} (line ${b.n})`;
    const lines = [b.n, d.answer.n, ...(got ? [got.n] : [])];
    const plainIn = plain.filter((m) => held.has(m));
    const plainOut = plain.filter((m) => !held.has(m));
    const oddOut = odd.filter((m) => !held.has(m));
    const known = d.touched ? " that carry nothing unknown" : "";
    if (plain.length > 0 && plainIn.length === 0)
      out.push({
        ok: false,
        message: `${where}: ${got ? "the block holds none" : `the host wrote ${i === 0 ? "no block" : `no block ${i + 1}`} holding a frame it was served, so none`} of the ${count(plain.length, "frame")}${known} (${listed(plain)}) that ${theirs} holds is there, after an answer (line ${d.answer.n}) that differs from lock-step's only by ${d.difference}: it composed nothing of that answer, as a host that failed to deserialise or rejected it would; keep every frame of it, and take what is unknown as ignorable`,
        expected: `${count(plain.length, "frame")} in the block, as in lock-step: ${listed(plain)}`,
        actual: got ? `a block without them (line ${got.n})` : "no such block",
        lines,
      });
    else if (plainOut.length > 0)
      out.push({
        ok: false,
        level: "NONE",
        message: `${where}: the block holds ${plainIn.length} of the ${count(plain.length, "frame")}${known} that ${theirs} holds, and not ${listed(plainOut)}, after an answer (line ${d.answer.n}) that differs from lock-step's only by ${d.difference}`,
        expected: `as in lock-step: ${listed(plain)}`,
        actual: `without ${listed(plainOut)}`,
        lines,
      });
    if (oddOut.length > 0 && plainIn.length > 0)
      out.push({
        ok: false,
        level: "NONE",
        message: `${where}: the block leaves out ${listed(oddOut)} (${d.touchedWords ?? "the frame that carries the difference"}), which ${theirs} holds: a frame of an unknown kind is opaque evidence, which a host may decline to specialise its handling of, not drop`,
        expected: `${listed(oddOut)} in the block, as in lock-step`,
        actual: `without ${listed(oddOut)}`,
        lines,
      });
    if (plain.length > 0 && plainOut.length === 0 && oddOut.length === 0)
      out.push({
        ok: true,
        message: `${where}: the block holds every one of the ${count(expected.length, "frame")} that ${theirs} holds, after an answer (line ${d.answer.n}) that differs only by ${d.difference}`,
        lines,
      });
  }
  // One cause, one finding: the blocks that hold nothing of their answer are told in the first one's words.
  const none = out.filter((e) => !e.ok && e.level === undefined);
  if (none.length < 2) return out;
  const [first, ...more] = none;
  const merged: Evidence = {
    ...first!,
    message: `${first!.message}; and so for ${count(more.length, "later block")} of lock-step's (${lineWords(more.map((e) => e.lines[0]!))})`,
    lines: [...new Set(none.flatMap((e) => e.lines))],
  };
  return [merged, ...out.filter((e) => !none.includes(e))];
}

/** The markers the frames of one answer carry in their content. */
function markersOf(a: HostEnvelope): Set<string> {
  return new Set(framesIn(a.env).flatMap((f) => (typeof f.content === "string" ? markersIn(f.content) : [])));
}

/**
 * Whether the host carried on after the answer that carried the difference:
 * where in lock-step it sent another query after its first answer, here it
 * must have sent one after that answer. None warns (a host's next query may
 * hang on what the answer held, and it may decline to specialise its
 * handling of an unknown kind); nothing where lock-step shows one query
 * only (a host that does one query shows nothing here).
 * That it carried on is told from what it received and used, not from the
 * provider having answered: where in lock-step a block after its first
 * holds the frames of the answer to its next query, here a block after the
 * first must hold some of the frames of the answer to its next query (pass);
 * none warns, unless `told` (sameDelivery's findings) already says that
 * lock-step's block has no counterpart here (one cause, one finding). Where
 * lock-step shows no such block (its blocks hold no frame content, or it
 * writes one block only), only that it sent the next query is said, and
 * that whether it received the answer cannot be seen.
 */
export function carriedOn(base: HostView, v: HostView, d: Differential, told: readonly Evidence[] = []): Evidence[] {
  const first = base.answered("frames")[0];
  if (!first) return [];
  const later = base.sent("query").filter((q) => q.n > first.n);
  if (later.length === 0) return [];
  const next = v.sent("query").find((q) => q.n > d.answer.n);
  if (!next)
    return [
      {
        ok: false,
        level: "NONE",
        message: `scenario ${v.name}: after the answer at line ${d.answer.n}, which differs from lock-step's only by ${d.difference}, the host sent no further query, though in lock-step it sent ${count(later.length, "more query", "more queries")} after its first answer (${lineWords(later.map((q) => q.n))}): did it lose its connection to the provider?`,
        expected: "a next query, as in lock-step",
        actual: "no query after that answer",
        lines: [d.answer.n, ...later.map((q) => q.n)],
      },
    ];
  const answer = v.answered("frames").find((a) => a.n > next.n);
  // lock-step's block of its second answer: a block after its first holding some of that answer's frames.
  const before = readBlocks(base).blocks;
  const second = base.answered("frames").find((a) => a.n > later[0]!.n);
  const theirs = second && before.slice(1).find((b) => b.frames.some((f) => markersOf(second).has(f.marker)));
  const sent = `scenario ${v.name}: after the answer at line ${d.answer.n}, the host sent its next query (line ${next.n}), as in lock-step (line ${later[0]!.n})`;
  if (!theirs || !answer) {
    const why = !answer
      ? "no frames answer to it came"
      : before.length === 0
        ? "lock-step's blocks hold no frame content"
        : "in lock-step no block after its first holds the frames of a later answer";
    return [
      {
        ok: true,
        message: `${sent}${answer ? `, and the provider answered it (line ${answer.n})` : ""}; whether the host received and used ${answer ? "that answer" : "an answer"} cannot be seen: ${why}`,
        lines: [d.answer.n, next.n, ...(answer ? [answer.n] : [])],
      },
    ];
  }
  const wanted = markersOf(answer);
  const blocks = readBlocks(v).blocks;
  const used = blocks.slice(1).find((b) => b.frames.some((f) => wanted.has(f.marker)));
  const theirsWords = `lock-step's block at line ${theirs.n} holds the frames of its second answer (line ${second!.n})`;
  if (used) {
    const held = used.frames.filter((f) => wanted.has(f.marker)).length;
    return [
      {
        ok: true,
        message: `scenario ${v.name}: the host carried on after the answer at line ${d.answer.n}: its next query (line ${next.n}) was answered (line ${answer.n}), and a later block (line ${used.n}) holds ${held} of that answer's frames, as ${theirsWords}`,
        lines: [d.answer.n, next.n, answer.n, used.n, theirs.n],
      },
    ];
  }
  if (told.some((e) => !e.ok && e.lines.includes(theirs.n))) return [];
  return [
    {
      ok: false,
      level: "NONE",
      message: `scenario ${v.name}: after the answer at line ${d.answer.n}, which differs from lock-step's only by ${d.difference}, the host sent its next query (line ${next.n}) and the provider answered it (line ${answer.n}), but no block after its first holds any of that answer's frames, though ${theirsWords}: did the host receive that answer, or stop reading from the provider?`,
      expected: `a later block holding frames of the answer at line ${answer.n}, as in lock-step`,
      actual: `${count(blocks.length, "block")} holding served frames, none after the first with that answer's`,
      lines: [d.answer.n, next.n, answer.n, theirs.n],
    },
  ];
}
