import { defineCheck } from "./kit/check.ts";
import { isDigest } from "../src/math/digest.ts";
import { perVerdict } from "./kit/verify.ts";
import { show } from "./kit/show.ts";
import { VERIFY } from "../src/protocol/probes.ts";

/**
 * @anchor V4
 * Stimulus: every verdict received in probe verify (the mutated digests
 * provoke stale verdicts).
 */
export default defineCheck({
  id: "V4",
  title: "A replacement_digest is a digest, never a body",
  level: "MUST",
  requirement:
    "A stale verdict MAY carry a replacement_digest — the provider's current digest for the frame, a digest never a body. A host MUST NOT keep serving its stored copy of a stale or gone frame.",
  probes: [VERIFY],
  score({ probe }) {
    const r = perVerdict(probe(VERIFY), (v, x) => {
      if (v.replacement_digest === undefined) return undefined;
      return isDigest(v.replacement_digest)
        ? { ok: true, message: "every replacement_digest is sha256:<64 lowercase hex>", lines: [x.reply!.n] }
        : {
            ok: false,
            message: `a ${show(v.status)} verdict in reply to ${x.step} has replacement_digest ${show(v.replacement_digest, 80)}`,
            expected: "sha256:<64 lowercase hex>",
            actual: show(v.replacement_digest, 80),
            lines: [x.reply!.n],
          };
    });
    return Array.isArray(r) ? r : { skip: r.skip === "no verdict was received" ? "no verdict carried a replacement_digest" : r.skip };
  },
});
