import { defineCheck } from "./kit/check.ts";
import { perVerdict } from "./kit/verify.ts";
import { show } from "./kit/show.ts";
import { VERIFY } from "../src/protocol/probes.ts";

const STATUSES = ["valid", "stale", "gone", "unknown"];

/**
 * @anchor V3
 * Stimulus: every verdict received in probe verify.
 */
export default defineCheck({
  id: "V3",
  title: "Every verdict status is valid, stale, gone or unknown",
  level: "MUST",
  requirement: "A verdict is one of valid, stale, gone, unknown. A host MUST reuse a held frame body only on valid; unknown MUST NOT be read as validity.",
  probes: [VERIFY],
  score({ probe }) {
    const r = perVerdict(probe(VERIFY), (v, x) =>
      STATUSES.includes(v.status as string)
        ? { ok: true, message: "every verdict status is in the vocabulary", lines: [x.reply!.n] }
        : {
            ok: false,
            message: `a verdict in reply to ${x.step} has status ${show(v.status)}`,
            expected: STATUSES.join(" | "),
            actual: show(v.status),
            lines: [x.reply!.n],
          },
    );
    return r;
  },
});
