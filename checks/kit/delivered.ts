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
import { findings } from "./findings.ts";
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

/** Where a block of the scenario's is compared with lock-step's i-th (index from 0). */
type Compared = {
  scenario: string;
  /** The scenario's block's line; null where it wrote no such block. */
  block: number | null;
  index: number;
  lock_step_block: number;
  answer: number;
  difference: string;
};
const where = (p: Compared): string => (p.block !== null ? `scenario ${p.scenario}, line ${p.block}` : `scenario ${p.scenario}`);
const theirs = (p: Compared): string => `lock-step's ${p.index === 0 ? "first block" : `block ${p.index + 1}`} (line ${p.lock_step_block})`;
/** The frames of lock-step's block that carry nothing of the difference; `known`: the scenario has frames that carry it, so they are named apart. */
type Plain = Compared & { plain: string[]; known: boolean };
const known = (p: { known: boolean }): string => (p.known ? " that carry nothing unknown" : "");

type Uncomparable = { scenario: string; answer: number; difference: string; lock_step_blocks: number[]; blocks: number[]; held_here: boolean };
type Carried = { scenario: string; answer: number; difference: string };

/** The findings of what a host delivered, against lock-step's: a check that uses them declares this table beside its own. */
export const delivered = findings({
  uncomparable: {
    level: "MAY",
    reading:
      "lock-step's blocks hold no frame content, so what the host delivered cannot be compared, and no sentence asks a host to put frame content in a block",
    says: (p: Uncomparable) => {
      const theirs = p.lock_step_blocks;
      const here = p.blocks;
      return `scenario ${p.scenario}: what the host delivered after an answer (line ${p.answer}) that differs from lock-step's only by ${p.difference} cannot be compared with lock-step's: ${
        theirs.length === 0
          ? "in lock-step it wrote no block"
          : `lock-step's ${theirs.length === 1 ? "block" : `${theirs.length} blocks`} (${lineWords(theirs)}) hold${theirs.length === 1 ? "s" : ""} no frame content (no marker of a frame served there)`
      }${p.held_here ? "" : `, nor ${here.length === 0 ? "does any block here, for it wrote none" : `${here.length === 1 ? "does its block" : `do its ${here.length} blocks`} here (${lineWords(here)})`}`}, so only how it ended is compared; a block holding each frame's content would show what it composed`;
    },
    expected: () => "blocks holding the content of the frames served, in both scenarios",
    actual: (p: Uncomparable) =>
      `no marker of a served frame in ${p.lock_step_blocks.length === 0 ? "any block of lock-step (none written)" : "lock-step's blocks"}`,
  },
  "answer-dropped": {
    says: (p: Plain & { later: number[] }) =>
      `${where(p)}: ${p.block !== null ? "the block holds none" : `the host wrote ${p.index === 0 ? "no block" : `no block ${p.index + 1}`} holding a frame it was served, so none`} of the ${count(p.plain.length, "frame")}${known(p)} (${listed(p.plain)}) that ${theirs(p)} holds is there, after an answer (line ${p.answer}) that differs from lock-step's only by ${p.difference}: it composed nothing of that answer, as a host that failed to deserialise or rejected it would; keep every frame of it, and take what is unknown as ignorable` +
      (p.later.length > 0 ? `; and so for ${count(p.later.length, "later block")} of lock-step's (${lineWords(p.later)})` : ""),
    expected: (p: Plain) => `${count(p.plain.length, "frame")} in the block, as in lock-step: ${listed(p.plain)}`,
    actual: (p: Compared) => (p.block !== null ? `a block without them (line ${p.block})` : "no such block"),
  },
  "frames-dropped": {
    level: "NONE",
    reading: "the block holds some of the answer's frames, so the answer was not rejected whole, and a host's own selection may leave out others",
    says: (p: Plain & { held: number; dropped: string[] }) =>
      `${where(p)}: the block holds ${p.held} of the ${count(p.plain.length, "frame")}${known(p)} that ${theirs(p)} holds, and not ${listed(p.dropped)}, after an answer (line ${p.answer}) that differs from lock-step's only by ${p.difference}`,
    expected: (p: Plain) => `as in lock-step: ${listed(p.plain)}`,
    actual: (p: { dropped: string[] }) => `without ${listed(p.dropped)}`,
  },
  "opaque-dropped": {
    level: "NONE",
    reading:
      "a block is the host's selection, and a frame left out of it may still have been received and held as opaque evidence, so its absence does not show it was rejected",
    says: (p: Compared & { dropped: string[]; touched: string | null }) =>
      `${where(p)}: the block leaves out ${listed(p.dropped)} (${p.touched ?? "the frame that carries the difference"}), which ${theirs(p)} holds: a frame of an unknown kind is opaque evidence, which a host may decline to specialise its handling of, not drop`,
    expected: (p: { dropped: string[] }) => `${listed(p.dropped)} in the block, as in lock-step`,
    actual: (p: { dropped: string[] }) => `without ${listed(p.dropped)}`,
  },
  "kept-all": {
    ok: true,
    says: (p: Compared & { frames: number }) =>
      `${where(p)}: the block holds every one of the ${count(p.frames, "frame")} that ${theirs(p)} holds, after an answer (line ${p.answer}) that differs only by ${p.difference}`,
  },
  "no-next-query": {
    level: "NONE",
    reading: "the host's next query may wait on its own timing or policy, or on what the answer held, so no next query does not show the answer was rejected",
    says: (p: Carried & { lock_step_queries: number[] }) =>
      `scenario ${p.scenario}: after the answer at line ${p.answer}, which differs from lock-step's only by ${p.difference}, the host sent no further query, though in lock-step it sent ${count(p.lock_step_queries.length, "more query", "more queries")} after its first answer (${lineWords(p.lock_step_queries)}): did it lose its connection to the provider?`,
    expected: () => "a next query, as in lock-step",
    actual: () => "no query after that answer",
  },
  "use-unseen": {
    ok: true,
    says: (p: Carried & { next: number; lock_step_next: number; next_answer: number | null; why: "no-answer" | "no-content" | "no-later-block" }) =>
      `scenario ${p.scenario}: after the answer at line ${p.answer}, the host sent its next query (line ${p.next}), as in lock-step (line ${p.lock_step_next})${p.next_answer !== null ? `, and the provider answered it (line ${p.next_answer})` : ""}; whether the host received and used ${p.next_answer !== null ? "that answer" : "an answer"} cannot be seen: ${
        p.why === "no-answer"
          ? "no frames answer to it came"
          : p.why === "no-content"
            ? "lock-step's blocks hold no frame content"
            : "in lock-step no block after its first holds the frames of a later answer"
      }`,
  },
  "carried-on": {
    ok: true,
    says: (p: Carried & { next: number; next_answer: number; block: number; held: number; lock_step_block: number; lock_step_answer: number }) =>
      `scenario ${p.scenario}: the host carried on after the answer at line ${p.answer}: its next query (line ${p.next}) was answered (line ${p.next_answer}), and a later block (line ${p.block}) holds ${p.held} of that answer's frames, as lock-step's block at line ${p.lock_step_block} holds the frames of its second answer (line ${p.lock_step_answer})`,
  },
  "answer-unused": {
    level: "NONE",
    reading:
      "the host sent its next query and was answered, and a later block may be composed from what it already held, so no block of that answer's frames does not show the answer was rejected",
    says: (p: Carried & { next: number; next_answer: number; lock_step_block: number; lock_step_answer: number; blocks: number }) =>
      `scenario ${p.scenario}: after the answer at line ${p.answer}, which differs from lock-step's only by ${p.difference}, the host sent its next query (line ${p.next}) and the provider answered it (line ${p.next_answer}), but no block after its first holds any of that answer's frames, though lock-step's block at line ${p.lock_step_block} holds the frames of its second answer (line ${p.lock_step_answer}): did the host receive that answer, or stop reading from the provider?`,
    expected: (p: { next_answer: number }) => `a later block holding frames of the answer at line ${p.next_answer}, as in lock-step`,
    actual: (p: { blocks: number }) => `${count(p.blocks, "block")} holding served frames, none after the first with that answer's`,
  },
});

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
      delivered.say(
        "uncomparable",
        {
          scenario: v.name,
          answer: d.answer.n,
          difference: d.difference,
          lock_step_blocks: theirs.map((b) => b.n),
          blocks: here.map((b) => b.n),
          held_here: heldHere,
        },
        { lines: [...theirs.map((b) => b.n), ...here.map((b) => b.n), d.answer.n] },
      ),
    ];
  }
  const now = readBlocks(v);
  const servedHere = markedFrames(now.served);
  const touched = (m: string): boolean => d.touched !== undefined && servedHere.has(m) && d.touched(servedHere.get(m)!);
  const out: Evidence[] = [];
  // The blocks that hold nothing of their answer: one cause, one finding, told in the first one's words.
  const none: { p: Plain; lines: number[] }[] = [];
  let noneAt = -1;
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
    const at: Compared = { scenario: v.name, block: got ? got.n : null, index: i, lock_step_block: b.n, answer: d.answer.n, difference: d.difference };
    const lines = [b.n, d.answer.n, ...(got ? [got.n] : [])];
    const plainIn = plain.filter((m) => held.has(m));
    const plainOut = plain.filter((m) => !held.has(m));
    const oddOut = odd.filter((m) => !held.has(m));
    const p: Plain = { ...at, plain, known: d.touched !== undefined };
    if (plain.length > 0 && plainIn.length === 0) {
      if (noneAt < 0) noneAt = out.length;
      none.push({ p, lines });
    } else if (plainOut.length > 0) out.push(delivered.say("frames-dropped", { ...p, held: plainIn.length, dropped: plainOut }, { lines }));
    if (oddOut.length > 0 && plainIn.length > 0)
      out.push(delivered.say("opaque-dropped", { ...at, dropped: oddOut, touched: d.touchedWords ?? null }, { lines }));
    if (plain.length > 0 && plainOut.length === 0 && oddOut.length === 0) out.push(delivered.say("kept-all", { ...at, frames: expected.length }, { lines }));
  }
  if (none.length === 0) return out;
  const [first, ...more] = none;
  const dropped = delivered.say(
    "answer-dropped",
    { ...first!.p, later: more.map((e) => e.lines[0]!) },
    { lines: none.length < 2 ? first!.lines : [...new Set(none.flatMap((e) => e.lines))] },
  );
  if (none.length < 2) return [...out.slice(0, noneAt), dropped, ...out.slice(noneAt)];
  return [dropped, ...out];
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
  const at: Carried = { scenario: v.name, answer: d.answer.n, difference: d.difference };
  if (!next) return [delivered.say("no-next-query", { ...at, lock_step_queries: later.map((q) => q.n) }, { lines: [d.answer.n, ...later.map((q) => q.n)] })];
  const answer = v.answered("frames").find((a) => a.n > next.n);
  // lock-step's block of its second answer: a block after its first holding some of that answer's frames.
  const before = readBlocks(base).blocks;
  const second = base.answered("frames").find((a) => a.n > later[0]!.n);
  const theirs = second && before.slice(1).find((b) => b.frames.some((f) => markersOf(second).has(f.marker)));
  if (!theirs || !answer) {
    const why = !answer ? "no-answer" : before.length === 0 ? "no-content" : "no-later-block";
    return [
      delivered.say(
        "use-unseen",
        { ...at, next: next.n, lock_step_next: later[0]!.n, next_answer: answer ? answer.n : null, why },
        { lines: [d.answer.n, next.n, ...(answer ? [answer.n] : [])] },
      ),
    ];
  }
  const wanted = markersOf(answer);
  const blocks = readBlocks(v).blocks;
  const used = blocks.slice(1).find((b) => b.frames.some((f) => wanted.has(f.marker)));
  const seen = { next: next.n, next_answer: answer.n, lock_step_block: theirs.n, lock_step_answer: second!.n };
  if (used) {
    const held = used.frames.filter((f) => wanted.has(f.marker)).length;
    return [delivered.say("carried-on", { ...at, ...seen, block: used.n, held }, { lines: [d.answer.n, next.n, answer.n, used.n, theirs.n] })];
  }
  if (told.some((e) => !e.ok && e.lines.includes(theirs.n))) return [];
  return [delivered.say("answer-unused", { ...at, ...seen, blocks: blocks.length }, { lines: [d.answer.n, next.n, answer.n, theirs.n] })];
}
