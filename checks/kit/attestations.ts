import { auditFrames, keysOf, type EntryAudit, type FramesAudit } from "../../src/attest/audit.ts";
import { type Evidence } from "./check.ts";
import { providerName } from "../../src/protocol/caps.ts";
import { exchanges } from "./answers.ts";
import { type ProbeView } from "../../src/transcript/view.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import {
  AS_OF,
  BUDGET_SQUEEZE,
  EMBEDDING,
  GRAPH_ANCHORS,
  KINDS_QUERY,
  REPRESENTATIONS_QUERY,
  SAMPLE_QUERY,
  VERIFY,
  type ProbeSpec,
} from "../../src/protocol/probes.ts";

/**
 * Every probe of the shared session that queries: each signed answer any of
 * its stimuli produces is audited, so every result size the corpus allows,
 * and every representation, is.
 */
export const ATTESTATION_PROBES = [SAMPLE_QUERY, BUDGET_SQUEEZE, KINDS_QUERY, AS_OF, GRAPH_ANCHORS, REPRESENTATIONS_QUERY, EMBEDDING, VERIFY];

export interface AuditedAnswer {
  /** Transcript line of the frames envelope. */
  line: number;
  step: string;
  audit: FramesAudit;
}

/** Every frames answer in these probes, audited against the session's ack. */
export function audits(views: ProbeView[]): AuditedAnswer[] {
  return views.flatMap(auditsOf);
}

/** A view's audits, made once however many checks read them (six do): read-only, like the view. */
const AUDITS = new WeakMap<ProbeView, AuditedAnswer[]>();

function auditsOf(v: ProbeView): AuditedAnswer[] {
  let got = AUDITS.get(v);
  if (got) return got;
  const ack = v.ack()?.env;
  const name = providerName(ack) ?? "";
  const keys = keysOf(ack);
  got = exchanges([v]).flatMap((x) =>
    x.answer?.env.type === "frames" && isObj(x.answer.env.result)
      ? [{ line: x.answer.n, step: x.step, audit: auditFrames(name, x.answer.env.result, keys) }]
      : [],
  );
  AUDITS.set(v, got);
  return got;
}

export const NOT_ATTESTED = "the provider attached no attestation to any answer (attestations are optional: §6.5)";

/**
 * Score a rule over every frame_attestations entry of every attested answer
 * in the attestation probes; `none` is the skip reason when the rule found
 * nothing to judge.
 */
export function perEntry(
  probe: (spec: ProbeSpec) => ProbeView,
  rule: (e: EntryAudit, audit: FramesAudit, line: number) => Evidence | undefined,
  none: string,
): Evidence[] | { skip: string } {
  const answers = audits(ATTESTATION_PROBES.map(probe)).filter((a) => a.audit.attested);
  if (answers.length === 0) return { skip: NOT_ATTESTED };
  const out = answers.flatMap(({ line, audit }) => audit.entries.map((e) => rule(e, audit, line)).filter((x): x is Evidence => x !== undefined));
  return out.length > 0 ? out : { skip: none };
}
