import { defineCheck, mergeSame, type Evidence } from "./kit/check.ts";
import { isDigest } from "../src/math/digest.ts";
import { perVerdict, verifyExchanges, verifying, type VerifyExchange } from "./kit/verify.ts";
import { findings, type Param } from "./kit/findings.ts";
import { framesIn, isObj, type Obj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { VERIFY } from "../src/protocol/probes.ts";
import type { ProbeView } from "../src/transcript/view.ts";

/** Members that would carry a frame body. */
const BODY = ["content", "frames", "frame_body", "body"];

/**
 * The digest the provider serves now for each frame id: what its fresh answer (step served) carried, where the same
 * query sent again after the verifies serves the frame with it again or does not serve it. Where the query again
 * serves the frame with another digest, its source moved under the run, and no one digest is current: left out.
 */
function servedDigests(p: ProbeView): Map<unknown, unknown> {
  const digests = (step: string): Map<unknown, unknown> => {
    const a = p.answer(step, ["frames", "error"]);
    return new Map(a ? framesIn(a.env).map((f) => [f.id, f.content_digest]) : []);
  };
  const first = digests(VERIFY.steps.served);
  const again = digests(VERIFY.steps.servedAgain);
  return new Map([...first].filter(([id, d]) => !again.has(id) || again.get(id) === d));
}

type Body = { step: string; carried: string[]; verdict: Param };
type Malformed = { status: Param; step: string; digest: Param };
/** presented: the replacement is the digest the host presented (an echo, not the current one). */
type NotCurrent = { frame: Param; step: string; replacement: string; presented: boolean; current: string };

const F = findings({
  "no-body": { ok: true, says: () => "no verdict carries a frame body" },
  "body-carried": {
    apart: ["carried"],
    says: (p: Body) => `a verdict in reply to ${p.step} carries ${p.carried.join(", ")}: a body travelled`,
    expected: () => "frame identity, status, and at most a replacement_digest",
    actual: (p: Body) => show(p.verdict, 160),
  },
  "replacement-well-formed": { ok: true, says: () => "every replacement_digest is sha256:<64 lowercase hex>" },
  "malformed-replacement": {
    apart: ["status"],
    says: (p: Malformed) => `a ${show(p.status)} verdict in reply to ${p.step} has replacement_digest ${show(p.digest, 80)}`,
    expected: () => "sha256:<64 lowercase hex>",
    actual: (p: Malformed) => show(p.digest, 80),
  },
  /** V4 defines it ("the provider's current digest for the frame") with no keyword: a warning, never a failure. */
  "not-current": {
    cites: "the provider's current digest for the frame",
    level: "NONE",
    apart: ["presented"],
    says: (p: NotCurrent) =>
      `the stale verdict for frame ${show(p.frame)} in reply to ${p.step} carries replacement_digest ${p.replacement}${p.presented ? " (the digest the host presented)" : ""}, but the provider served that frame with ${p.current} moments ago`,
    expected: (p: NotCurrent) => p.current,
    actual: (p: NotCurrent) => p.replacement,
  },
});

function body(v: Obj, x: VerifyExchange): Evidence {
  const carried = [
    ...BODY.filter((k) => v[k] !== undefined),
    ...(isObj(v.frame) ? BODY.filter((k) => (v.frame as Record<string, unknown>)[k] !== undefined).map((k) => `frame.${k}`) : []),
  ];
  return carried.length === 0
    ? F.say("no-body", {}, { lines: [x.reply!.n] })
    : F.say("body-carried", { step: x.step, carried, verdict: v as Param }, { lines: [x.reply!.n] });
}

function replacement(v: Obj, x: VerifyExchange, now: Map<unknown, unknown>): Evidence[] {
  if (v.replacement_digest === undefined) return [];
  if (!isDigest(v.replacement_digest))
    return [F.say("malformed-replacement", { status: v.status as Param, step: x.step, digest: v.replacement_digest as Param }, { lines: [x.reply!.n] })];
  const out: Evidence[] = [F.say("replacement-well-formed", {}, { lines: [x.reply!.n] })];
  const id = isObj(v.frame) ? v.frame.frame_id : undefined;
  const current = now.get(id);
  if (v.status === "stale" && isDigest(current) && v.replacement_digest !== current) {
    const presented = isObj(v.frame) ? v.frame.content_digest : undefined;
    out.push(
      F.say(
        "not-current",
        {
          frame: id as Param,
          step: x.step,
          replacement: String(v.replacement_digest),
          presented: v.replacement_digest === presented,
          current: String(current),
        },
        { lines: [x.reply!.n] },
      ),
    );
  }
  return out;
}

/**
 * @anchor V4
 * Stimulus: every verdict received in probe verify (the mutated digests
 * provoke stale verdicts), against the fresh query's frames.
 * Readings: a verdict that carries a frame body breaks V4 ("a digest never a
 * body"; context-reuse: "Neither a verify request nor its response MAY carry
 * frame bodies"), a failure. A stale verdict's replacement_digest that is not
 * the digest the provider served for that frame moments ago contradicts V4's
 * definition ("the provider's current digest for the frame"), which carries
 * no keyword: a warning. The digest could change between the two; a warning
 * is the reading that never fails an honest provider.
 */
export default defineCheck({
  findings: { ...F.table, ...verifying.table },
  id: "V4",
  title: "A verdict carries no body, and a replacement_digest is the current digest",
  level: "MUST",
  requirement:
    "A stale verdict MAY carry a replacement_digest — the provider's current digest for the frame, a digest never a body. A host MUST NOT keep serving its stored copy of a stale or gone frame. [context-reuse: Neither a verify request nor its response MAY carry frame bodies.]",
  probes: [VERIFY],
  score({ probe }) {
    const p = probe(VERIFY);
    const now = servedDigests(p);
    const bodies = perVerdict(p, (v, x) => body(v, x));
    if (!Array.isArray(bodies)) return bodies;
    const digests = verifyExchanges(p).flatMap((x) => x.verdicts.flatMap((v) => replacement(v, x, now)));
    return mergeSame([...bodies, ...digests]);
  },
});
