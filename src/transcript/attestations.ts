import { auditFrames, keysOf, type FramesAudit } from "../attest/audit.ts";
import { providerName } from "../probe/caps.ts";
import { exchanges } from "./answers.ts";
import { isObj, type ProbeView } from "./view.ts";

export const ATTESTATION_PROBES = ["sample-query", "budget-squeeze"];

export interface AuditedAnswer {
  /** Transcript line of the frames envelope. */
  line: number;
  step: string;
  audit: FramesAudit;
}

/** Every frames answer in these probes, audited against the session's ack. */
export function audits(views: ProbeView[]): AuditedAnswer[] {
  return views.flatMap((v) => {
    const ack = v.ack()?.env;
    const name = providerName(ack) ?? "";
    const keys = keysOf(ack);
    return exchanges([v]).flatMap((x) =>
      x.answer?.env.type === "frames" && isObj(x.answer.env.result) ? [{ line: x.answer.n, step: x.step, audit: auditFrames(name, x.answer.env.result, keys) }] : [],
    );
  });
}

export const NOT_ATTESTED = "the provider attached no attestation to any answer (attestations are optional: §6.5)";
