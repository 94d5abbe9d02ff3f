import type { Evidence } from "../kit/check.ts";
import { readBlocks } from "../kit/blocks.ts";
import { defineHostCheck } from "../kit/host.ts";
import { findings } from "../kit/findings.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import {
  candidates,
  frameWords,
  servedFrames,
  servedParam,
  servedFrameRef,
  servedSaid,
  type FrameRef,
  type ServedFrame,
  type ServedParam,
} from "../kit/served.ts";
import { show } from "../kit/show.ts";
import { isObj, type Obj } from "../../src/protocol/envelope.ts";
import { HOST_ENV, PLACEHOLDERS, PROVIDER_PLACEHOLDERS, SCENARIOS } from "../../src/protocol/host-scenarios.ts";
import type { HostFileLine, HostView } from "../../src/transcript/host.ts";

/** RFC 3339's date-time (§5.6), the shape §2 gives as_of. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** A FrameId in words. */
const refWords = (r: FrameRef): string =>
  `(${show(r.provider_id, 40)}, ${show(r.frame_id, 60)}, ${r.content_digest === undefined ? "no content_digest" : show(r.content_digest, 20)})`;

/** Why no served frame answers to a FrameId: the nearest frame the scenario's providers did serve, and how it differs. */
function unmatched(ref: FrameRef, served: readonly ServedFrame[]): string {
  const named = served.filter((f) => f.name === ref.provider_id);
  const pool = named.length > 0 ? named : served;
  const sameId = pool.filter((f) => f.frameId === ref.frame_id);
  if (sameId.length > 0) {
    const f = sameId[0]!;
    return ref.content_digest === undefined
      ? `${frameWords(f)} was served with content_digest ${show(f.digest, 20)}, and the report leaves it out: the FrameId is the whole triple`
      : f.digest === undefined && sameId.length === 1
        ? `${frameWords(f)} was served without a content_digest, and the report gives it ${show(ref.content_digest, 20)}`
        : `no provider served ${show(ref.frame_id, 60)} with content_digest ${show(ref.content_digest, 20)}`;
  }
  if (named.length === 0 && !served.some((f) => f.frameId === ref.frame_id))
    return `no provider of the scenario is named ${show(ref.provider_id, 40)}, and none served a frame ${show(ref.frame_id, 60)}`;
  return `${show(ref.provider_id, 40)} served no frame ${show(ref.frame_id, 60)}`;
}

/** What a walk over one usage report found: departures from its shape, served frames named by no FrameId, by none served, or priced otherwise, and the sum. */
interface Tally {
  shape: string[];
  /** Served frames referenced by no FrameId, by why. */
  refs: Map<string, string[]>;
  strangers: Stranger[];
  costs: Mispriced[];
  summed: number;
  frames: number;
}

/** A FrameId of a report that names no frame a scenario provider served: where, which, and the nearest it misses. */
type Stranger = { place: string; ref: FrameRef; why: string };
const strangerSaid = (x: Stranger): string => `${x.place} ${refWords(x.ref)}: ${x.why}`;
/** A served frame a report prices otherwise: its token_cost no count (shown), or a count unlike the one its provider declared. */
type Mispriced = { place: string; ref: FrameRef; cost: string } | { place: string; ref: FrameRef; cost: number; served: ServedParam; declared: string };
const mispricedSaid = (x: Mispriced): string =>
  "served" in x
    ? `${x.place} ${refWords(x.ref)} costs ${x.cost}, and ${servedSaid(x.served)} declared token_cost ${x.declared}`
    : `${x.place} ${refWords(x.ref)} has token_cost ${x.cost}, not a count`;
/** Served frames referenced by no FrameId, for one reason: the reason, the first few places, and how many. */
type Unnamed = { why: string; places: string[]; count: number };
const unnamedSaid = (u: Unnamed): string => `${u.why} (${u.places.join(", ")}${u.count > u.places.length ? `, and ${u.count - u.places.length} more` : ""})`;
/** One usage report: its scenario and line. */
type Report = { scenario: string; line: number };
const reportSaid = (p: Report): string => `scenario ${p.scenario}, line ${p.line}`;
/** A value of the report, as a count where it is one, else shown. */
const valueSaid = (v: number | string): string => (typeof v === "number" ? String(v) : v);

const F = findings({
  "no-frame-id": {
    apart: (p: Report & { frames: number; reasons: Unnamed[] }) => p.reasons.map((r) => r.why),
    says: (p: Report & { frames: number; reasons: Unnamed[] }) =>
      `${reportSaid(p)}: the usage report references ${count(p.frames, "served frame")} by no FrameId: ${p.reasons.map(unnamedSaid).join("; ")}`,
    expected: () => "each served frame named by its FrameId: { provider_id, frame_id, content_digest (absent, or null, where the frame had none) }",
    actual: (p: { reasons: Unnamed[] }) => p.reasons[0]!.why,
  },
  "unserved-frame": {
    says: (p: Report & { strangers: Stranger[]; count: number }) =>
      `${reportSaid(p)}: the usage report names ${count(p.count, "frame")} no provider of the scenario served: ${p.strangers.map(strangerSaid).join("; ")}${p.count > p.strangers.length ? "; …" : ""}; a billed total must walk back to the exact frames behind it`,
    expected: () => "every FrameId that of a frame a scenario provider served",
    actual: (p: { strangers: Stranger[] }) => strangerSaid(p.strangers[0]!),
  },
  mispriced: {
    says: (p: Report & { mispriced: Mispriced[]; count: number }) =>
      `${reportSaid(p)}: the usage report prices ${count(p.count, "served frame")} at other than the token_cost the frame carried: ${p.mispriced.map(mispricedSaid).join("; ")}${p.count > p.mispriced.length ? "; …" : ""}`,
    expected: () => "each served frame's token_cost as its provider declared it",
    actual: (p: { mispriced: Mispriced[] }) => mispricedSaid(p.mispriced[0]!),
  },
  "consumed-unsummed": {
    says: (p: Report & { consumed: number | string; summed: number; frames: number }) =>
      `${reportSaid(p)}: the usage report's budget_consumed is ${valueSaid(p.consumed)}, and the token_cost of the ${count(p.frames, "served frame")} it reports sums to ${p.summed}`,
    expected: (p: { summed: number }) => `budget_consumed ${p.summed}: the summed token_cost of the served frames it reports`,
    actual: (p: { consumed: number | string }) => `budget_consumed ${valueSaid(p.consumed)}`,
  },
  "off-shape": {
    cites: "A usage report is the per-request roll-up, bound to Rust as UsageReport",
    level: "NONE",
    apart: (p: { departures: string[] }) => p.departures.map((d) => d.replace(/\d+/g, "#")),
    says: (p: Report & { departures: string[]; count: number }) =>
      `${reportSaid(p)}: the usage report departs from the shape of context-reuse §2: ${p.departures.join("; ")}${p.count > p.departures.length ? "; …" : ""}`,
    expected: () =>
      "budget_requested, budget_consumed, as_of (RFC 3339), providers[{provider_id, frames_served, frames_rejected, token_cost, served_frames}], each total re-summing",
    actual: (p: { departures: string[] }) => p.departures[0]!,
  },
  "re-sums": {
    ok: true,
    says: (p: Report & { summed: number; frames: number }) =>
      `${reportSaid(p)}: the usage report's budget_consumed (${p.summed}) is the summed token_cost of the ${count(p.frames, "served frame")} it reports, each named by its full FrameId as served`,
  },
  "line-too-long": {
    cites: "A host MUST be able to produce a usage report for any query it executed",
    reading:
      "a line over the run's cap was not read: the cap is the run's own limit, no sentence bounds a report's length, and whether the line is a report that re-sums is not known, so it informs, as a provider's over-long line does under S2-framing",
    level: "MAY",
    says: (p: Report) => `${reportSaid(p)}: a line of ${PLACEHOLDERS.usage} longer than the run reads whole; it was not judged`,
  },
  "not-a-report": {
    cites: "A usage report is the per-request roll-up, bound to Rust as UsageReport",
    level: "NONE",
    says: (p: Report & { json: boolean; text: string }) =>
      `${reportSaid(p)}: a line of ${PLACEHOLDERS.usage} that is ${p.json ? "not a JSON object" : "not JSON"} (${p.text}): it is no usage report`,
    expected: () => "one JSON object a line: a usage report (context-reuse §2)",
    actual: (p: { text: string }) => p.text,
  },
  unreported: {
    cites: "The report MUST reference those frames by their FrameId (§6.3), so a billed total is walkable back to the exact",
    reading:
      "what a report lists is the host's own account of the frames it served, and a composed frame it leaves out may be one it counts as served before (an earlier turn's store), so the run cannot show the billed total misses it",
    level: "NONE",
    says: (p: { scenario: string; frames: ServedParam[]; count: number }) =>
      `scenario ${p.scenario}: its blocks compose ${count(p.count, "frame")} that no usage report of the scenario lists among its served frames: ${p.frames.map(servedSaid).join(", ")}${p.count > p.frames.length ? ", …" : ""}; a billed total is walkable back to the frames behind it only where the report names every frame that reached the prompt`,
    expected: () => "each composed frame in a usage report's served_frames, by its FrameId",
    actual: (p: { count: number }) => `${count(p.count, "frame")} composed and not reported`,
  },
  "too-few-reports": {
    cites: "A host MUST be able to produce a usage report for any query it executed",
    reading:
      "being able to produce a report for any query it executed is not writing one report per provider answer: a host may roll a retry, a second turn or every provider of a round into one report, or write a report only when asked, so fewer reports than answers does not show a query it could not report",
    level: "NONE",
    says: (p: { scenario: string; queries: number; who: string; answered: number[]; reports: number[] }) =>
      `scenario ${p.scenario}: the host executed at least ${count(p.queries, "query", "queries")} (${p.who} answered ${lineWords(p.answered)} with frames) and wrote ${p.reports.length === 0 ? "no usage report" : count(p.reports.length, "usage report")}${p.reports.length > 0 ? ` (${lineWords(p.reports)})` : ""}; a host must be able to produce one for any query it executed, and one written for each is what would show it`,
    expected: (p: { queries: number }) => `at least ${count(p.queries, "usage report")}`,
    actual: (p: { reports: number[] }) => count(p.reports.length, "usage report"),
  },
});

/** Walk one usage report: its shape, and each served frame it lists against the frames the scenario's providers served. */
function tally(report: Obj, served: readonly ServedFrame[]): Tally {
  const shape: string[] = [];
  if (!isCount(report.budget_requested)) shape.push(`budget_requested is ${show(report.budget_requested, 30)}, not a count of tokens`);
  if (typeof report.as_of !== "string" || !RFC3339.test(report.as_of)) shape.push(`as_of is ${show(report.as_of, 40)}, not an RFC 3339 date-time`);
  if (!Array.isArray(report.providers)) shape.push(`providers is ${show(report.providers, 30)}, not an array`);
  const providers = Array.isArray(report.providers) ? report.providers : [];
  const refs = new Map<string, string[]>();
  const strangers: Stranger[] = [];
  const costs: Mispriced[] = [];
  let summed = 0;
  let frames = 0;
  for (const [i, p] of providers.entries()) {
    if (!isObj(p)) {
      shape.push(`providers[${i}] is not an object`);
      continue;
    }
    const pid = show(p.provider_id, 40);
    if (typeof p.provider_id !== "string") shape.push(`providers[${i}].provider_id is ${pid}, not a string`);
    for (const k of ["frames_served", "frames_rejected", "token_cost"])
      if (!isCount(p[k])) shape.push(`providers[${i}].${k} is ${show(p[k], 30)}, not a count`);
    if (!Array.isArray(p.served_frames)) shape.push(`providers[${i}].served_frames is ${show(p.served_frames, 30)}, not an array`);
    const list = Array.isArray(p.served_frames) ? p.served_frames : [];
    let own = 0;
    for (const [j, sf] of list.entries()) {
      const where = `providers[${i}].served_frames[${j}]`;
      frames++;
      const cost = isObj(sf) ? sf.token_cost : undefined;
      if (isCount(cost)) {
        summed += cost;
        own += cost;
      }
      const ref = servedFrameRef(sf);
      if (typeof ref === "string") {
        refs.set(ref, [...(refs.get(ref) ?? []), where]);
        continue;
      }
      if (!isCount(cost)) costs.push({ place: where, ref, cost: show(cost, 30) });
      if (typeof p.provider_id === "string" && ref.provider_id !== p.provider_id)
        shape.push(`${where} names provider ${show(ref.provider_id, 40)} inside the entry of ${pid}`);
      const match = candidates(ref, served);
      if (match.length === 0) strangers.push({ place: where, ref, why: unmatched(ref, served) });
      else if (isCount(cost) && !match.some((f) => f.frame.token_cost === cost))
        costs.push({ place: where, ref, cost, served: servedParam(match[0]!), declared: show(match[0]!.frame.token_cost, 20) });
    }
    if (isCount(p.frames_served) && p.frames_served !== list.length)
      shape.push(`providers[${i}] (${pid}) says frames_served ${p.frames_served} and lists ${list.length} served frames`);
    if (isCount(p.token_cost) && list.every((sf) => isObj(sf) && isCount(sf.token_cost)) && p.token_cost !== own)
      shape.push(`providers[${i}] (${pid}) says token_cost ${p.token_cost}, and its served frames sum to ${own}`);
  }
  return { shape, refs, strangers, costs, summed, frames };
}

/** A walked usage report's evidence: the MUSTs (FrameIds, frames served, prices, the sum), then its shape, else a pass. */
function verdicts(t: Tally, report: Obj, at: Report, lines: number[], served: readonly ServedFrame[]): Evidence[] {
  const { shape, refs, strangers, costs, summed, frames } = t;
  const out: Evidence[] = [];
  const withServed = { lines: [...lines, ...new Set(served.map((f) => f.n))] };
  if (refs.size > 0) {
    const n = [...refs.values()].reduce((a, w) => a + w.length, 0);
    const reasons = [...refs].slice(0, 3).map(([why, where]) => ({ why, places: where.slice(0, 3), count: where.length }));
    out.push(F.say("no-frame-id", { ...at, frames: n, reasons }, { lines }));
  }
  if (strangers.length > 0) out.push(F.say("unserved-frame", { ...at, strangers: strangers.slice(0, 3), count: strangers.length }, withServed));
  if (costs.length > 0) out.push(F.say("mispriced", { ...at, mispriced: costs.slice(0, 3), count: costs.length }, withServed));
  if (!isCount(report.budget_consumed) || report.budget_consumed !== summed) {
    const consumed = typeof report.budget_consumed === "number" ? report.budget_consumed : show(report.budget_consumed, 30);
    out.push(F.say("consumed-unsummed", { ...at, consumed, summed, frames }, { lines }));
  }
  if (shape.length > 0) out.push(F.say("off-shape", { ...at, departures: shape.slice(0, 4), count: shape.length }, { lines }));
  if (out.every((e) => e.level === "NONE")) out.push(F.say("re-sums", { ...at, summed, frames }, { lines }));
  return out;
}

/** One usage report, judged: its shape (warnings), its FrameId references and its sum (the MUSTs). */
function judge(v: HostView, line: HostFileLine, served: readonly ServedFrame[]): Evidence[] {
  const at: Report = { scenario: v.name, line: line.n };
  const lines = [line.n];
  if (line.overLong) return [F.say("line-too-long", at, { lines })];
  if (!isObj(line.value)) return [F.say("not-a-report", { ...at, json: line.value !== undefined, text: show(line.line, 60) }, { lines })];
  return verdicts(tally(line.value, served), line.value, at, lines, served);
}

/** The FrameIds (frame id and digest) a scenario's usage reports list as served. */
function reportedIds(lines: readonly HostFileLine[]): Set<string> {
  const out = new Set<string>();
  for (const l of lines) {
    const providers = isObj(l.value) && Array.isArray(l.value.providers) ? l.value.providers : [];
    for (const p of providers.slice(0, 1000)) {
      const frames = isObj(p) && Array.isArray(p.served_frames) ? p.served_frames : [];
      for (const f of frames.slice(0, 10_000)) {
        const ref = servedFrameRef(f);
        if (typeof ref !== "string") out.add(JSON.stringify([ref.frame_id, ref.content_digest ?? null]));
      }
    }
  }
  return out;
}

/**
 * Frames the scenario's blocks compose that no usage report of it names: a
 * report that leaves them out bills less than reached the prompt. Warns: what
 * a report lists is the host's account of "the served frames it reports",
 * and a frame it composed from an earlier turn's store was served then.
 */
function unreported(v: HostView, reports: readonly HostFileLine[]): Evidence[] {
  if (reports.length === 0) return [];
  const { blocks } = readBlocks(v);
  const named = reportedIds(reports);
  const seen = new Set<string>();
  const missing: ServedFrame[] = [];
  for (const b of blocks)
    for (const { frame } of b.frames) {
      const id = JSON.stringify([frame.frameId, frame.digest ?? null]);
      if (seen.has(id)) continue;
      seen.add(id);
      if (!named.has(id)) missing.push(frame);
    }
  if (missing.length === 0) return [];
  return [
    F.say(
      "unreported",
      { scenario: v.name, frames: missing.slice(0, 4).map(servedParam), count: missing.length },
      { lines: [...blocks.map((b) => b.n), ...reports.map((l) => l.n)] },
    ),
  ];
}

/**
 * @anchor UR1
 * Stimulus: every line the host wrote to {usage} (CGP_USAGE_PATH) in every
 * scenario (lock-step, correlation, foreign-embeddings,
 * representations-subset, verify-declared, egress, egress-scopes,
 * egress-scopes-consented, wrong-family, unknown-members, unknown-vocabulary,
 * error-internal, error-unknown-code, error-no-code, bearer-token,
 * crash-mid-query, stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered,
 * compose-rescored, three-providers, compose-one, compose-one-reordered,
 * compose-one-rescored, budget-breaker-one, reuse-without-verify, reuse, score-ranges,
 * quoted-benign, quoted-hostile, budget-breaker, unverifiable-attestation, reference-unresolvable, incompatible-version, unknown-envelope-type), against the frames the scenario's
 * providers served there. three-providers is the one made for it: one frame
 * id served with and without a content_digest by two providers, one frame the
 * same at both but for its provider id, one provider serving nothing.
 * Readings. The file is the interface: where the host wrote no line to it in
 * any scenario the check skips, saying so (a host that keeps its reports
 * elsewhere is not judged on a file it never wrote). Each line is one report.
 * Fails (the two MUSTs): budget_consumed is not the summed token_cost of the
 * served frames the report lists; a served frame is referenced by no FrameId
 * (a provider_id and frame_id, and the content_digest it was served with,
 * absent or null where it had none; the triple binds and its JSON shape does
 * not, so it is taken nested, `{ frame: {…}, token_cost }`, or flat beside the
 * token_cost); a FrameId names no frame a scenario
 * provider served (the provider id is the provider's handshake name, or, where
 * it is no provider's name, the host's own routing key, and then any
 * provider's frame of that id and digest answers); a served frame priced at
 * other than the token_cost its provider declared (the sum UR1 asks is of the
 * frames' token_cost). Reading: "MUST be able to produce a usage report for
 * any query it executed" does not say one report per provider answer (a host
 * may roll a retry, a second turn or a round of providers into one, or write
 * reports only when asked), so a scenario in which some provider answered
 * more queries with frames than the host wrote reports warns, never fails (a
 * query of the host reaches each provider at most once, so that count is a
 * lower bound of its queries). A line longer than the run reads whole is not
 * judged and informs (the cap is the run's own), and counts as a report.
 * Warns (§2 states the shape with no keyword): a line that is no
 * JSON object; budget_requested, as_of (RFC 3339), provider_id,
 * frames_served, frames_rejected or a provider's token_cost missing or
 * mistyped; frames_served unlike the served frames listed; a provider's
 * token_cost not re-summing from its served frames; a served frame listed
 * under another provider's entry; a frame the scenario's blocks compose
 * that none of its reports lists (the report then bills less than reached
 * the prompt; a warning, since what a report lists is the host's account of
 * the frames it served).
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "UR1",
  title: "The host's usage reports re-sum and name each served frame by its FrameId",
  level: "MUST",
  requirement:
    "A host MUST be able to produce a usage report for any query it executed, whose budget_consumed equals the summed token_cost of the served frames it reports. " +
    "The report MUST reference those frames by their FrameId (§6.3), so a billed total is walkable back to the exact (provider id, frame id, content_digest) triples behind it.",
  scenarios: SCENARIOS,
  needs: { writes: ["usage"] },
  score(input) {
    const views = SCENARIOS.map((s) => input.scenario(s)).filter((v) => v.ran);
    if (!views.some((v) => v.usage().length > 0)) {
      const named = input.names(PLACEHOLDERS.usage) || input.names(HOST_ENV.usage);
      return {
        skip: named
          ? `the host's command names ${PLACEHOLDERS.usage}, but it wrote no line there in any scenario: UR1 is judged on the usage reports a host writes there, one JSON line per query it executed`
          : `the host wrote no usage report: name ${PLACEHOLDERS.usage} in its command line (or read ${HOST_ENV.usage}) and append one JSON line per query it executed, its usage report in the shape of context-reuse §2`,
      };
    }
    const out: Evidence[] = [];
    for (const v of views) {
      const served = servedFrames(v);
      const lines = v.usage();
      for (const l of lines) out.push(...judge(v, l, served));
      // A line over the run's cap may be a report: it is not read, and not counted against the host.
      const reportLines = lines.filter((l) => isObj(l.value) || l.overLong);
      const answered = v.providers().map((p) => p.answered("frames"));
      const most = answered.reduce((m, a) => (a.length > m.length ? a : m), [] as (typeof answered)[number]);
      out.push(...unreported(v, reportLines));
      if (most.length === 0) continue;
      const who = v.providerCount > 1 ? PROVIDER_PLACEHOLDERS[input.transport][answered.indexOf(most)]! : "its provider";
      if (reportLines.length < most.length)
        out.push(
          F.say(
            "too-few-reports",
            { scenario: v.name, queries: most.length, who, answered: most.map((a) => a.n), reports: reportLines.map((l) => l.n) },
            { lines: [...most.map((a) => a.n), ...reportLines.map((l) => l.n)] },
          ),
        );
    }
    return out;
  },
});
