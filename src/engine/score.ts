import type { CheckDef, ScoreInput } from "../../checks/kit/check.ts";
import { judgeScore } from "../../checks/kit/evaluate.ts";
import { judgedAt } from "../../checks/kit/evidence.ts";
import { schemaFindings } from "../../checks/kit/schema.ts";
import { HANDSHAKE_STEP, type ProbeSpec } from "../protocol/probes.ts";
import type { Transcript, TranscriptEvent } from "../transcript/types.ts";
import { ProbeView } from "../transcript/view.ts";
import { SHARED } from "./plan.ts";
import type { CheckResult } from "../verdict/status.ts";

export function evaluate(check: CheckDef, input: ScoreInput): CheckResult {
  const broken = check.probes.map((p) => input.probe(p).brokenPrecondition(!check.scoresHandshake)).filter((b): b is NonNullable<typeof b> => b !== undefined);
  return judgeScore({
    base: { id: check.id, title: check.title, level: check.level, requirement: check.requirement },
    of: "provider",
    broken,
    // Nothing of its stimulus could be seen: no rule can have been seen either way.
    allLost: broken.length === check.probes.length && broken.length > 0,
    score: () => check.score(input),
    // A schema violation of a field this anchor owns is this check's failure, even where its own rule found nothing to score;
    // where its own rule judged that very member, the rule's finding says it once.
    owned: (score) => {
      const judged = new Set(Array.isArray(score) ? score.flatMap((e) => e.judges ?? []) : []);
      return input.schema(check.id).filter((e) => e.site === undefined || !judgedAt(judged, e.site));
    },
  });
}

/**
 * The events a probe's checks see: its own, plus the opening handshake of
 * each session it ran in (recorded once, under the session's first probe).
 * A probe resumed in a fresh session after its provider died or wedged sent
 * some steps again there, to rebuild what later stimuli are derived from:
 * each step is seen as the first session that sent it recorded it, so every
 * stimulus is judged once, on the exchange that first carried it. Which
 * sessions a probe ran in is read from the record itself, never from today's
 * probe registry, so a replay scores what was recorded.
 */
function viewsOf(transcript: Transcript): (spec: ProbeSpec) => ProbeView {
  const byProbe = new Map<string, TranscriptEvent[]>();
  const handshakes = new Map<string, TranscriptEvent[]>();
  for (const e of transcript.events) {
    let own = byProbe.get(e.probe);
    if (!own) byProbe.set(e.probe, (own = []));
    own.push(e);
    if (e.step === HANDSHAKE_STEP) {
      let hs = handshakes.get(e.session);
      if (!hs) handshakes.set(e.session, (hs = []));
      hs.push(e);
    }
  }
  const sessionsOf = new Map<string, string[]>();
  for (const [session, probes] of Object.entries(transcript.header.sessions ?? {}))
    for (const p of probes) sessionsOf.set(p, [...(sessionsOf.get(p) ?? []), session]);
  const views = new Map<string, ProbeView>();
  return (spec) => {
    let v = views.get(spec.name);
    if (!v) {
      const own = byProbe.get(spec.name) ?? [];
      let sessions = [...new Set([...(sessionsOf.get(spec.name) ?? []), ...own.map((e) => e.session)])];
      // A transcript written before sessions were recorded had one shared session, named so.
      if (sessions.length === 0 && spec.session === "shared" && handshakes.has(SHARED)) sessions = [SHARED];
      const opening = sessions.flatMap((session) =>
        own.some((e) => e.session === session && e.step === HANDSHAKE_STEP) ? [] : (handshakes.get(session) ?? []).filter((e) => e.probe !== spec.name),
      );
      const all = [...opening, ...own].sort((a, b) => a.n - b.n);
      const firstSender = new Map<string, string>();
      for (const e of all) if (e.dir === "send" && e.step !== HANDSHAKE_STEP && !firstSender.has(e.step)) firstSender.set(e.step, e.session);
      v = new ProbeView(
        spec,
        all.filter((e) => {
          const first = firstSender.get(e.step);
          return first === undefined || first === e.session;
        }),
        all,
      );
      views.set(spec.name, v);
    }
    return v;
  };
}

/** Score a transcript: pure, so a live run and a replay give the same verdicts. */
export function score(transcript: Transcript, checks: readonly CheckDef[]): CheckResult[] {
  const probe = viewsOf(transcript);
  const findings = schemaFindings(transcript.events);
  const transport = transcript.header.target.kind;
  // Each probe's span, first event to last (the events' t is the session's clock).
  const first = new Map<string, number>();
  const span = new Map<string, number>();
  for (const e of transcript.events) {
    const from = first.get(e.probe) ?? (first.set(e.probe, e.t), e.t);
    span.set(e.probe, Math.max(span.get(e.probe) ?? 0, e.t - from));
  }
  const timeOf = (c: CheckDef): number => c.probes.reduce((m, p) => Math.max(m, span.get(p.name) ?? 0), 0);
  return checks.map((c) => {
    // A check may only read the probes it declares: it is scored on those alone.
    const input: ScoreInput = {
      probe: (spec) => {
        if (!c.probes.includes(spec) && !c.observes?.includes(spec)) throw new Error(`check ${c.id} reads probe ${spec.name}, which it does not declare`);
        return probe(spec);
      },
      schema: (a) => findings.byOwner.get(a) ?? [],
      validated: () => findings.validated,
      transport,
    };
    return { ...evaluate(c, input), time_ms: Math.round(timeOf(c)) };
  });
}
