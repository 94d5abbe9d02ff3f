/**
 * `explain <anchor>`: what a check enforces, what is sent to observe it, how
 * it is scored, and which misbehave modes prove it can fail. Check modules
 * are plain data plus a score function, so everything here comes from the
 * registries (CHECKS, the probe specs, MODES, EXCLUDED); nothing is added to a check.
 * Pure: returns text, or undefined for an id that is neither checked nor
 * excluded. Ids match ignoring case (`h1` explains H1).
 */
import { EXCLUDED } from "../../checks/excluded.ts";
import { CHECKS } from "../../checks/index.ts";
import { SCORING } from "./scoring.generated.ts";
import { modeByName } from "../../misbehave/index.ts";
import { type CheckDef, type Level } from "../../checks/kit/check.ts";
import { PROVENANCE_FILES, type ProbeSpec } from "../protocol/probes.ts";
import { hostWitnesses, witnesses } from "./witnesses.ts";
import { HOST_CHECKS } from "../../checks/host/index.ts";
import { HOST_MODES } from "../../misbehave/host/index.ts";
import { HOST_PREFIX, type HostCheckDef } from "../../checks/kit/host.ts";
import { SCENARIOS } from "../protocol/host-scenarios.ts";
import { wrap } from "./wrap.ts";

const SCORED: Record<Level, string> = {
  MUST: "MUST: a broken rule is a fail (the run is not conformant; exit 1).",
  SHOULD: "SHOULD: a shortfall is a warn (still conformant); --strict makes it a fail.",
  MAY: "MAY: a shortfall is info only; it never fails the run, even under --strict.",
  NONE: "NONE: the spec states the outcome with no keyword, so a shortfall is a warn (still conformant), and stays one under --strict.",
};

/** What a witness must make a check of each level say. */
const WITNESSED: Record<Level, string> = {
  MUST: "fail",
  SHOULD: "warn: a SHOULD never fails",
  MAY: "inform: info never fails nor warns",
  NONE: "warn: an outcome stated with no keyword never fails",
};

const strength: Record<Level, number> = { MAY: 0, NONE: 1, SHOULD: 1, MUST: 2 };

function probeLine(p: ProbeSpec): string {
  // Not a probe that talks: the engine re-reads files the provider's frames named.
  const session =
    p === PROVENANCE_FILES ? "" : p.session === "own" ? " (own session)" : p.session === "malformed" ? " (in the session of malformed input)" : "";
  return `  ${p.name}${session}: ${p.summary}`;
}

function levels(c: CheckDef | HostCheckDef): string[] {
  const lines = [`  ${SCORED[c.level]}`];
  // A requirement that also says SHOULD or MAY has weaker sub-rules, scored at their own strength.
  const weaker = (["SHOULD", "MAY"] as const).filter((k) => strength[k] < strength[c.level] && new RegExp(`\\b${k}\\b`).test(c.requirement));
  for (const k of weaker)
    lines.push(`  Its ${k} part is scored as a ${k}: ${k === "SHOULD" ? "warn (fail under --strict)" : "info"}; the check takes its worst evidence.`);
  if (!("probes" in c)) {
    lines.push(
      "  When the host could not be started, or sent its provider nothing in a scenario the check reads (but for one whose provider is off loopback, where sending nothing is an answer), it is not observed (never a pass, and the run is not conformant); when none of its scenarios ran (one over the other transport, or off loopback without --listen), a skip.",
    );
    return lines;
  }
  lines.push(
    c.scoresHandshake
      ? "  A missing handshake_ack is this check's own failure; a probe that could not run at all leaves it not observed."
      : "  When its stimulus could not be seen through (no start, no handshake_ack, the provider died or wedged on it, the deadline passed) it is not observed: never a pass, counted apart from failures, and the run is not conformant; when nothing it applies to was served, a skip.",
  );
  return lines;
}

function witnessLines(id: string, level: Level): string[] {
  const names = witnesses(id);
  if (names.length === 0) return ["  (none)"];
  return names.map((name) => {
    const m = modeByName(name);
    const also = [...(m?.expectFail ?? []), ...(m?.expectWarn ?? [])].filter((x) => x !== id);
    // A check whose level can fail, witnessed by a mode that only makes it warn: say so.
    const warns = level === "MUST" && (m?.expectWarn ?? []).includes(id) ? " (warns)" : "";
    return `  ${name}${warns}: ${m?.defect ?? ""}${also.length > 0 ? ` (also fails ${also.join(", ")})` : ""}`;
  });
}

function hostWitnessLines(id: string): string[] {
  const names = hostWitnesses(id);
  if (names.length === 0) return ["  (none)"];
  return names.map((name) => {
    const m = HOST_MODES.find((x) => x.name === name);
    const also = [...(m?.expectFail ?? []), ...(m?.expectWarn ?? []), ...(m?.expectInfo ?? [])].filter((x) => x !== id);
    return `  ${name}: ${m?.defect ?? ""}${also.length > 0 ? ` (also fails ${also.join(", ")})` : ""}`;
  });
}

function explainHost(c: HostCheckDef): string {
  return [
    `${c.id} (${c.level}): ${c.title}`,
    "",
    "Requirement (binds the host)",
    `  ${c.requirement}`,
    "",
    "Scenarios (what the host is run against: cgp-conform host)",
    ...c.scenarios.map((sc) => `  ${sc.name}${sc.only ? ` (${sc.only} only)` : ""}: ${sc.summary}`),
    "",
    `How it is scored (checks/host/${c.id.slice(HOST_PREFIX.length)}.ts)`,
    ...wrap(SCORING[c.id] ?? "", 100, "  "),
    "",
    "Levels",
    ...levels(c),
    "",
    `Witnesses (host modes of the reference host that must make it ${WITNESSED[c.level]})`,
    ...hostWitnessLines(c.id),
  ].join("\n");
}

/** Every name explain answers to: check ids, host check ids, excluded anchors, scenarios. */
export function explainable(): string[] {
  return [...CHECKS.map((c) => c.id), ...HOST_CHECKS.map((c) => c.id), ...Object.keys(EXCLUDED), ...SCENARIOS.map((sc) => sc.name)];
}

export function explain(id: string): string | undefined {
  const want = id.trim().toUpperCase();
  const h = HOST_CHECKS.find((x) => x.id.toUpperCase() === want);
  if (h) return explainHost(h);
  const c = CHECKS.find((x) => x.id.toUpperCase() === want);
  if (c) {
    return [
      `${c.id} (${c.level}): ${c.title}`,
      "",
      "Requirement",
      `  ${c.requirement}`,
      "",
      "Probes (what is sent)",
      ...c.probes.map(probeLine),
      "",
      `How it is scored (checks/${c.id}.ts)`,
      ...wrap(SCORING[c.id] ?? "", 100, "  "),
      "",
      "Levels",
      ...levels(c),
      "",
      `Witnesses (misbehave modes that must make it ${WITNESSED[c.level]})`,
      ...witnessLines(c.id, c.level),
      ...(HOST_CHECKS.some((x) => x.anchor === c.id) ? ["", `The host half of ${c.id} is host:${c.id}: cgp-conform explain host:${c.id}`] : []),
    ].join("\n");
  }
  const anchor = Object.keys(EXCLUDED).find((a) => a.toUpperCase() === want);
  if (anchor) {
    const host = HOST_CHECKS.find((x) => x.anchor === anchor);
    return [
      `${anchor}: excluded, no check`,
      "",
      "Why",
      `  ${EXCLUDED[anchor]}`,
      ...(host ? ["", `Its host half is ${host.id}: cgp-conform explain ${host.id}`] : []),
    ].join("\n");
  }
  // A scenario of cgp-conform host, named in host evidence: what it serves, and the host checks that read it.
  const scenario = SCENARIOS.find((sc) => sc.name.toUpperCase() === want);
  if (scenario) {
    const readers = HOST_CHECKS.filter((c) => c.scenarios.includes(scenario));
    return [
      `${scenario.name}: a scenario of cgp-conform host${scenario.only ? ` (${scenario.only} only)` : ""}`,
      "",
      "What its provider declares and does",
      ...wrap(scenario.summary, 100, "  "),
      "",
      "Host checks that read it",
      ...readers.map((c) => `  ${c.id} (${c.level}): ${c.title}`),
    ].join("\n");
  }
  // A host-checked anchor with no provider check (C2, C8, …): explain H names the host check.
  const hostOnly = HOST_CHECKS.find((x) => x.anchor.toUpperCase() === want);
  if (hostOnly) return explainHost(hostOnly);
  return undefined;
}
