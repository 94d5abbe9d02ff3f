import { defineCheck } from "./kit/check.ts";
import { findings, type Param } from "./kit/findings.ts";
import { perVerdict, verifying } from "./kit/verify.ts";
import { show } from "./kit/show.ts";
import { VERIFY } from "../src/protocol/probes.ts";

const STATUSES = ["valid", "stale", "gone", "unknown"];

const F = findings({
  "in-vocabulary": { ok: true, says: () => "every verdict status is in the vocabulary" },
  "unknown-status": {
    apart: ["status"],
    says: (p: { step: string; status?: Param }) => `a verdict in reply to ${p.step} has status ${show(p.status)}`,
    expected: () => STATUSES.join(" | "),
    actual: (p: { status?: Param }) => show(p.status),
  },
});

/**
 * @anchor V3
 * Stimulus: every verdict received in probe verify.
 */
export default defineCheck({
  findings: { ...F.table, ...verifying.table },
  id: "V3",
  title: "Every verdict status is valid, stale, gone or unknown",
  level: "MUST",
  requirement: "A verdict is one of valid, stale, gone, unknown. A host MUST reuse a held frame body only on valid; unknown MUST NOT be read as validity.",
  probes: [VERIFY],
  score({ probe }) {
    const r = perVerdict(probe(VERIFY), (v, x) =>
      STATUSES.includes(v.status as string)
        ? F.say("in-vocabulary", {}, { lines: [x.reply!.n] })
        : F.say("unknown-status", { step: x.step, status: v.status as Param }, { lines: [x.reply!.n] }),
    );
    return r;
  },
});
