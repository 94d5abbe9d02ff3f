import { defineCheck, mergeSame, type Evidence } from "./kit/check.ts";
import { isDigest } from "../src/math/digest.ts";
import { perVerdict, verifyExchanges, type VerifyExchange } from "./kit/verify.ts";
import { framesIn, isObj, type Obj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { VERIFY } from "../src/protocol/probes.ts";
import type { ProbeView } from "../src/transcript/view.ts";

/** Members that would carry a frame body. */
const BODY = ["content", "frames", "frame_body", "body"];

/** The digest the provider serves now for each frame id: what its fresh answer (step served) carried. */
function servedDigests(p: ProbeView): Map<unknown, unknown> {
  const a = p.answer(VERIFY.steps.served, ["frames", "error"]);
  return new Map(a ? framesIn(a.env).map((f) => [f.id, f.content_digest]) : []);
}

function body(v: Obj, x: VerifyExchange): Evidence {
  const carried = [
    ...BODY.filter((k) => v[k] !== undefined),
    ...(isObj(v.frame) ? BODY.filter((k) => (v.frame as Record<string, unknown>)[k] !== undefined).map((k) => `frame.${k}`) : []),
  ];
  return carried.length === 0
    ? { ok: true, message: "no verdict carries a frame body", lines: [x.reply!.n] }
    : {
        ok: false,
        message: `a verdict in reply to ${x.step} carries ${carried.join(", ")}: a body travelled`,
        expected: "frame identity, status, and at most a replacement_digest",
        actual: show(v, 160),
        lines: [x.reply!.n],
      };
}

function replacement(v: Obj, x: VerifyExchange, now: Map<unknown, unknown>): Evidence[] {
  if (v.replacement_digest === undefined) return [];
  if (!isDigest(v.replacement_digest))
    return [
      {
        ok: false,
        message: `a ${show(v.status)} verdict in reply to ${x.step} has replacement_digest ${show(v.replacement_digest, 80)}`,
        expected: "sha256:<64 lowercase hex>",
        actual: show(v.replacement_digest, 80),
        lines: [x.reply!.n],
      },
    ];
  const out: Evidence[] = [{ ok: true, message: "every replacement_digest is sha256:<64 lowercase hex>", lines: [x.reply!.n] }];
  const id = isObj(v.frame) ? v.frame.frame_id : undefined;
  const current = now.get(id);
  if (v.status === "stale" && isDigest(current) && v.replacement_digest !== current) {
    const presented = isObj(v.frame) ? v.frame.content_digest : undefined;
    // V4 defines it ("the provider's current digest for the frame") with no keyword: a warning, never a failure.
    out.push({
      ok: false,
      level: "NONE",
      message: `the stale verdict for frame ${show(id)} in reply to ${x.step} carries replacement_digest ${v.replacement_digest}${v.replacement_digest === presented ? " (the digest the host presented)" : ""}, but the provider served that frame with ${current} moments ago`,
      expected: String(current),
      actual: String(v.replacement_digest),
      lines: [x.reply!.n],
    });
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
