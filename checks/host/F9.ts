import { auditFrames, keysOf, type EntryAudit } from "../../src/attest/audit.ts";
import type { Evidence } from "../kit/check.ts";
import { noBlocks, readBlocks } from "../kit/blocks.ts";
import { defineHostCheck } from "../kit/host.ts";
import { count, lineWords, notRun } from "../kit/host-evidence.ts";
import { servedParam, servedSaid, type ServedParam, type ServedFrame } from "../kit/served.ts";
import { findings } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { providerName } from "../../src/protocol/caps.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { LOCK_STEP, UNVERIFIABLE_ATTESTATION } from "../../src/protocol/host-scenarios.ts";
import { describeEnding } from "../../src/transcript/host.ts";

/**
 * Outcomes a verifier finds invalid rather than uncheckable: the frame changed after signing, or the signature is forged or
 * under the wrong key (§6.5.4: "F8's 'uncheckable' and 'invalid' are different findings with opposite responses").
 */
const INVALID = [/^its signed_commitment is not the frame's$/, /^its signature does not verify under the published key$/];

/** Whether a reason `unverifiable` gave names an invalid attestation, not an uncheckable one. */
const invalid = (why: string): boolean => INVALID.some((r) => r.test(why));

/** Why no host can verify an attestation entry, in words, or undefined where it verifies. */
function unverifiable(e: EntryAudit): string | undefined {
  const s = e.signature;
  if (!s) return undefined;
  if (e.commitment && e.commitment.expected !== e.commitment.signed) return "its signed_commitment is not the frame's";
  switch (s.kind) {
    case "valid":
      return undefined;
    case "unknown-algorithm":
      return `its algorithm ${show(s.algorithm, 40)} is one no verifier recognises`;
    case "unknown-key":
      return `its key_id ${show(s.key_id, 40)} names no key the provider published`;
    case "bad-signature":
      return "its signature does not verify under the published key";
    case "not-signed":
      return "it carries no signature";
    case "commitment-mismatch":
      return "its signed_commitment is not the frame's";
    default:
      return `${s.kind.replace(/-/g, " ")} (${s.why})`;
  }
}

/** Each frame the scenario's provider served, with why its attestation cannot be verified, or null where it carried none; attested ones are left out. */
function classify(served: readonly ServedFrame[]): Map<ServedFrame, string | null> {
  const out = new Map<ServedFrame, string | null>();
  const byAnswer = new Map<number, ServedFrame[]>();
  for (const f of served) byAnswer.set(f.n, [...(byAnswer.get(f.n) ?? []), f]);
  for (const frames of byAnswer.values()) {
    const v = frames[0]!.view;
    const ack = v.ack()?.env;
    const env = v.answered("frames").find((a) => a.n === frames[0]!.n)?.env;
    const result = isObj(env?.result) ? env.result : {};
    const audit = auditFrames(providerName(ack) ?? "", result, keysOf(ack));
    const why = new Map<number, string | undefined>();
    for (const e of audit.entries) if (e.frameIndex !== undefined && e.signature) why.set(e.frameIndex, unverifiable(e));
    frames.forEach((f, i) => {
      if (!why.has(i)) out.set(f, null);
      else if (why.get(i) !== undefined) out.set(f, why.get(i)!);
    });
  }
  return out;
}

/** A frame's identity within the scenario's one provider. */
const key = (f: ServedFrame): string => JSON.stringify([f.provider, f.frameId, f.digest ?? null]);

/** Whether two frames differ in anything a host might select on, besides the attestation: kind, token_cost, score. */
const alike = (a: ServedFrame, b: ServedFrame): boolean =>
  a.frame.kind === b.frame.kind && a.frame.token_cost === b.frame.token_cost && a.frame.score === b.frame.score;

/** The blocks of the scenario, by line. */
type Blocks = { scenario: string; blocks: number[] };
const at = (p: Blocks): string => `scenario ${p.scenario}, ${p.blocks.length === 1 ? `line ${p.blocks[0]}` : lineWords(p.blocks)}`;
const theBlocks = (p: Blocks): string => (p.blocks.length === 1 ? "the block" : `the ${p.blocks.length} blocks`);
const leave = (p: Blocks): string => (p.blocks.length === 1 ? "leaves" : "leave");
const compose = (p: Blocks): string => (p.blocks.length === 1 ? "composes" : "compose");
/** Frames left out (or kept), each with why no host can verify its attestation (the audit's words). */
type Attested = { frame_id: string; why: string };
type Left = Blocks & { frames: Attested[] };
const listed = (fs: Attested[]): string => fs.map((f) => `${show(f.frame_id, 40)} (${f.why})`).join("; ");
const leftOut = (p: Left): string => `${count(p.frames.length, "frame")} left out`;

const F = findings({
  "dropped-for-attestation": {
    says: (p: Left & { provider: string | null; twin: ServedParam }) =>
      `${at(p)}: ${theBlocks(p)} ${leave(p)} out ${count(p.frames.length, "frame")} of ${p.provider ?? "its provider"} whose attestation the host cannot verify: ${listed(p.frames)}; ${p.blocks.length === 1 ? "it composes" : "they compose"} ${servedSaid(p.twin)}, which carries none and is alike in kind, token_cost and score, so each was dropped for its attestation alone; an unverifiable attestation degrades a frame to unattested, exactly as if it carried none`,
    expected: (p: Left) => `${p.frames.map((f) => show(f.frame_id, 40)).join(", ")} composed, as unattested`,
    actual: leftOut,
  },
  "dropped-unexplained": {
    cites: "A host MUST NOT reject or drop a frame solely because it carries an attestation the host cannot verify",
    reading:
      "the unattested frames composed differ from the dropped ones in kind, token_cost or score, or none was composed, so something other than the attestation may be why they were left out",
    level: "NONE",
    says: (p: Left & { controls: number }) =>
      p.controls > 0
        ? `${at(p)}: ${theBlocks(p)} ${leave(p)} out ${count(p.frames.length, "frame")} whose attestation the host cannot verify: ${listed(p.frames)}; the unattested frames composed differ from them in kind, token_cost or score, so the attestation may not be why`
        : `${at(p)}: ${theBlocks(p)} ${leave(p)} out ${count(p.frames.length, "frame")} whose attestation the host cannot verify: ${listed(p.frames)}, and ${compose(p)} no unattested frame either: nothing shows they would have been composed without their attestation`,
    expected: () => "each composed, as unattested",
    actual: leftOut,
  },
  "dropped-invalid": {
    cites: 'F8\'s "uncheckable" and "invalid" are different findings with opposite responses',
    reading:
      "an attestation whose commitment or signature fails is invalid rather than one the host cannot verify, and dropping its frame may be the opposite response §6.5.4 gives it, which F9 does not forbid",
    level: "MAY",
    says: (p: Left) =>
      `${at(p)}: ${theBlocks(p)} ${leave(p)} out ${count(p.frames.length, "frame")} whose attestation is invalid, not uncheckable: ${listed(p.frames)}; §6.5.4 gives an invalid attestation the opposite response to an uncheckable one, so dropping it is not judged here`,
  },
  "kept-unverifiable": {
    ok: true,
    says: (p: Left & { controls: number }) =>
      `${at(p)}: ${theBlocks(p)} ${compose(p)} every frame whose attestation the host cannot check (${p.frames.map((f) => `${show(f.frame_id, 40)}: ${f.why}`).join("; ")}), beside ${count(p.controls, "unattested frame")}`,
  },
  "admitted-nothing": {
    cites: "A host MUST NOT reject or drop a frame solely because it carries an attestation the host cannot verify",
    reading:
      "no frame of the scenario was composed, unattested ones included, so nothing shows the attested ones were left out for their attestations rather than for whatever kept the others out",
    level: "NONE",
    says: (p: { scenario: string; frames: number; answers: number[]; unverifiable: number; plain: number; written: number }) =>
      `scenario ${p.scenario}: no block composes any of the ${count(p.frames, "frame")} served (${lineWords(p.answers)}), ${count(p.unverifiable, "frame")} with an attestation that cannot be verified and ${p.plain} with none, though the host wrote ${count(p.written, "line")} to {context} (here or in ${LOCK_STEP.name}): it admitted nothing, so that it keeps unverifiable frames cannot be shown; rejecting the answer for its attestations would break F9`,
    expected: () => "every frame composed, the unverifiable ones as unattested",
    actual: () => "none composed",
  },
});

/**
 * @anchor F9
 * Stimulus: scenario unverifiable-attestation: one provider publishes an
 * attester key (handshake_ack.attester_keys) and serves four frames alike in
 * kind, token_cost and score, with room for all; three carry a
 * frame_attestations entry naming their full identity whose attestation no
 * host can verify: an algorithm no revision defines (and no Ed25519
 * signature either), an Ed25519 signature over another frame's commitment
 * by the published key, a key_id no published key answers; the fourth
 * carries none. Each entry's verdict is recomputed from the answer (§6.5.4:
 * the commitment, then the signature against the published keys), so
 * only an attestation that does not verify counts. And scenario lock-step,
 * to tell a host that composes nothing anywhere from one that composed
 * nothing here. A frame is in a block where its content's marker is.
 * Findings, over every block of the scenario (a host may spread a turn over
 * several blocks: a frame composed in any of them was not dropped): a frame
 * whose attestation cannot be verified missing from every block, where they
 * compose an unattested frame alike in
 * kind, token_cost and score fails: nothing but its attestation sets it
 * apart, so it was dropped solely for carrying an attestation the host
 * cannot verify ("exactly as if it carried none"). Missing beside an
 * unattested frame that differs in one of those warns (something else may
 * explain it). Readings: "an attestation the host cannot verify" takes in an
 * algorithm no verifier recognises and a key_id no published key answers
 * (uncheckable); a signed_commitment that is not the frame's, or a signature
 * that does not verify under the published key, is invalid, and §6.5.4 says
 * "F8's 'uncheckable' and 'invalid' are different findings with opposite
 * responses": a host that drops a frame whose attestation is invalid may be
 * answering tampering as it should, so that drop only informs. A block with no unattested frame in it shows no comparison:
 * where it also lacks an unverifiable one, or where the host wrote no block
 * here but did in lock-step, the host admitted nothing, which warns (not a
 * pass). How the host labels attestation is not judged. Skip when the host
 * wrote no block in either scenario, saying which placeholder would enable
 * the check.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "F9",
  title: "The host keeps a frame whose attestation it cannot verify",
  level: "MUST",
  requirement:
    "A host MUST NOT reject or drop a frame solely because it carries an attestation the host cannot verify; an unverifiable attestation degrades the frame to unattested, exactly as if it carried none.",
  scenarios: [UNVERIFIABLE_ATTESTATION, LOCK_STEP],
  needs: { writes: ["context"] },
  score(input) {
    const v = input.scenario(UNVERIFIABLE_ATTESTATION);
    const base = input.scenario(LOCK_STEP);
    if (!v.ran) return { skip: notRun(v) };
    const { blocks, served } = readBlocks(v);
    // One of each frame: a host that queried twice was served each twice.
    const kinds = new Map([...classify(served)].filter(([f], i, all) => all.findIndex(([g]) => key(g) === key(f)) === i));
    const bad = [...kinds].filter(([, why]) => why !== null).map(([f]) => f);
    const plain = [...kinds].filter(([, why]) => why === null).map(([f]) => f);
    if (bad.length === 0) {
      const answers = v.answered("frames");
      if (answers.length === 0)
        return {
          skip: `scenario ${v.name}: the provider answered none of the host's ${count(v.sent("query").length, "query", "queries")} with frames (it ${describeEnding(v.ending())}), so no unverifiable attestation reached it`,
        };
      return {
        skip: `scenario ${v.name}: no frame the host was served (${lineWords(answers.map((a) => a.n))}) carried an attestation that fails to verify, so F9 had nothing to act on`,
      };
    }
    const answerLines = [...new Set(served.map((f) => f.n))];
    if (blocks.length === 0) {
      const wrote = v.context().length + base.context().length;
      if (wrote === 0) return { skip: noBlocks(input, base.ran ? [v, base] : [v], base.ran ? `${v.name}, ${LOCK_STEP.name}` : v.name) };
      return [
        F.say(
          "admitted-nothing",
          {
            scenario: v.name,
            frames: kinds.size,
            answers: answerLines,
            unverifiable: bad.length,
            plain: plain.length,
            written: v.context().length + base.context().length,
          },
          { lines: [...answerLines, ...v.context().map((c) => c.n), ...base.context().map((c) => c.n)] },
        ),
      ];
    }
    const out: Evidence[] = [];
    // A frame is dropped where no block of the scenario composes it: a host may spread one turn over several blocks.
    const keys = new Set(blocks.flatMap((b) => b.frames.map((f) => key(f.frame))));
    const here = { has: (f: ServedFrame) => keys.has(key(f)) };
    const blockLines = blocks.map((b) => b.n);
    const where: Blocks = { scenario: v.name, blocks: blockLines };
    const controls = plain.filter((f) => here.has(f));
    const missingAll = bad.filter((f) => !here.has(f));
    // An invalid attestation (tampered, forged) has the opposite response to an uncheckable one: dropping that frame is not F9's to judge.
    const forged = missingAll.filter((f) => invalid(kinds.get(f)!));
    const missing = missingAll.filter((f) => !forged.includes(f));
    const kept = bad.filter((f) => here.has(f));
    const attested = (fs: ServedFrame[]): Attested[] => fs.map((f) => ({ frame_id: f.frameId, why: kinds.get(f)! }));
    const alone = missing.filter((f) => controls.some((c) => alike(c, f)));
    const unexplained = missing.filter((f) => !alone.includes(f));
    if (alone.length > 0) {
      const twin = controls.find((c) => alike(c, alone[0]!))!;
      out.push(
        F.say(
          "dropped-for-attestation",
          { ...where, frames: attested(alone), provider: alone[0]!.name ?? null, twin: servedParam(twin) },
          { lines: [...blockLines, ...new Set(alone.map((f) => f.n))] },
        ),
      );
    }
    if (unexplained.length > 0)
      out.push(
        F.say(
          "dropped-unexplained",
          { ...where, frames: attested(unexplained), controls: controls.length },
          { lines: [...blockLines, ...new Set(unexplained.map((f) => f.n))] },
        ),
      );
    if (forged.length > 0)
      out.push(F.say("dropped-invalid", { ...where, frames: attested(forged) }, { lines: [...blockLines, ...new Set(forged.map((f) => f.n))] }));
    if (missing.length === 0)
      out.push(
        F.say(
          "kept-unverifiable",
          { ...where, frames: attested(kept.filter((f) => !invalid(kinds.get(f)!))), controls: controls.length },
          { lines: [...blockLines, ...answerLines] },
        ),
      );
    return out;
  },
});
