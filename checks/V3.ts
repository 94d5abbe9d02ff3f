import { defineCheck, site } from "./kit/check.ts";
import { findings, type Param } from "./kit/findings.ts";
import { perVerdict, verifying } from "./kit/verify.ts";
import { show } from "./kit/show.ts";
import { VERIFY } from "../src/protocol/probes.ts";

const STATUSES = ["valid", "stale", "gone", "unknown"];

const F = findings({
  "in-vocabulary": { ok: true, says: () => "every verdict status is in the vocabulary" },
  "unknown-status": {
    basis: "a closed enum",
    apart: ["status"],
    says: (p: { step: string; status?: Param }) => `a verdict in reply to ${p.step} has status ${show(p.status)}`,
    expected: () => STATUSES.join(" | "),
    actual: (p: { status?: Param }) => show(p.status),
  },
});

/**
 * @anchor V3
 * Stimulus: every verdict received in probe verify.
 * Reading: "A verdict is one of valid, stale, gone, unknown" carries no keyword, but the four are a closed
 * enum of the wire shape (§1: wire shapes are normative): a status outside them is no verdict of the
 * protocol, and fails, labelled as the enum rather than as the host's MUSTs of V3.
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
        : F.say(
            "unknown-status",
            { step: x.step, status: v.status as Param },
            // The schema's enum at this member is the same cause: one finding.
            {
              lines: [x.reply!.n],
              judges: [site(x.reply!.n, `/response/verdicts/${((x.reply!.env.response as { verdicts: unknown[] }).verdicts ?? []).indexOf(v)}/status`)],
            },
          ),
    );
    return r;
  },
});
