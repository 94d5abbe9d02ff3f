import type { RunReport } from "../verdict/report.ts";
import { policyOf } from "./describe.ts";
import { type CheckResult, type EvidenceResult } from "../verdict/status.ts";
import { verdictWords } from "./verdict-words.ts";
import { counted, tally, levelTag } from "../verdict/words.ts";

/**
 * GitHub Actions workflow commands: an `::error` annotation per failing check
 * (a `::notice` for one the baseline expects to fail: the team accepted it, so it must not show red),
 * one more for the checks not observed (those the baseline lists are expected too) (one cause is one annotation; none when
 * the run could not be made, which its own error says), a `::warning` per warning, at most GITHUB_MAX_ANNOTATIONS of each (GitHub
 * shows no more per step), then one `::notice` with the verdict, the tallies
 * and the checks that were not annotated. Info and skip are only counted.
 *
 * Every command is one line: provider text cannot start a command of its own.
 */
export const GITHUB_MAX_ANNOTATIONS = 10;

/** Longest annotation message, in characters, before escaping. */
const MESSAGE_MAX = 4000;
/** Check ids named in the notice, per kind. */
const IDS_MAX = 50;

/** Control characters other than tab and line breaks, made visible. */
function visible(s: string): string {
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A command's message (data). */
export function escapeData(s: string): string {
  return visible(s).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A command's property value: the data escapes, plus `:` and `,`, which end a property. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function command(kind: "error" | "warning" | "notice", title: string, message: string): string {
  const chars = [...message];
  const msg = chars.length <= MESSAGE_MAX ? message : `${chars.slice(0, MESSAGE_MAX).join("")}… (cut; the JSON report has it all)`;
  return `::${kind} title=${escapeProperty(title)}::${escapeData(msg)}`;
}

function findingText(e: EvidenceResult): string {
  const out = [`${e.untestable ? "not observed: " : ""}${levelTag(e.level, e.basis) ? `[${levelTag(e.level, e.basis)}] ` : ""}${e.message}`];
  if (e.expected !== undefined) out.push(`expected: ${e.expected}`);
  if (e.actual !== undefined) out.push(`actual: ${e.actual}`);
  if (e.lines.length > 0) out.push(`transcript lines: ${e.lines.join(", ")}`);
  return out.join("\n");
}

/** The check's first finding of its own status, and how many more there are. */
function annotation(r: CheckResult): string {
  const own = r.evidence.filter((e) => e.status === r.status);
  const first = own[0];
  if (!first) return r.title;
  const more = own.length - 1;
  return (
    findingText(first) +
    (more > 0 ? `\n… and ${more} more ${r.status === "fail" ? "failing" : r.status === "unobserved" ? "unobserved" : "warning"} findings` : "")
  );
}

function idList(results: CheckResult[]): string {
  const ids = results.slice(0, IDS_MAX).map((r) => r.id);
  return ids.join(", ") + (results.length > IDS_MAX ? `, … (${results.length - IDS_MAX} more)` : "");
}

export function renderGithub(r: RunReport): string {
  const s = r.summary;
  const expected = new Set(r.policy?.baseline?.still_failing ?? []);
  const accepted = r.results.filter((c) => (c.status === "fail" || c.status === "unobserved") && expected.has(c.id));
  const fails = r.results.filter((c) => c.status === "fail" && !expected.has(c.id));
  // A check not observed gates the run as a failure does: one error names them all, with the first one's cause.
  const unseen = r.results.filter((c) => c.status === "unobserved" && !expected.has(c.id));
  const warns = r.results.filter((c) => c.status === "warn");
  const out: string[] = [];

  const couldNotRun = r.could_not_run
    ? [command("error", "cgp-conform: COULD NOT RUN", r.could_not_run_reason ?? "the provider could not be started")]
    : unseen.length > 0
      ? [command("error", `cgp-conform: ${counted(unseen.length, "check")} not observed`, `${idList(unseen)}\n${annotation(unseen[0]!)}`)]
      : [];
  const errorRoom = GITHUB_MAX_ANNOTATIONS - couldNotRun.length;
  out.push(...couldNotRun);
  out.push(...fails.slice(0, errorRoom).map((c) => command("error", `${c.id}: ${c.title}`, annotation(c))));
  out.push(...warns.slice(0, GITHUB_MAX_ANNOTATIONS).map((c) => command("warning", `${c.id}: ${c.title}`, annotation(c))));
  out.push(...accepted.slice(0, GITHUB_MAX_ANNOTATIONS).map((c) => command("notice", `${c.id}: ${c.title} (expected by the baseline)`, annotation(c))));

  const verdict = verdictWords(r);
  const rest: string[] = [];
  const moreFails = fails.slice(errorRoom);
  const moreWarns = warns.slice(GITHUB_MAX_ANNOTATIONS);
  const moreAccepted = accepted.slice(GITHUB_MAX_ANNOTATIONS);
  if (moreFails.length > 0) rest.push(`${counted(moreFails.length, "more failing check")}: ${idList(moreFails)}`);
  if (moreWarns.length > 0) rest.push(`${counted(moreWarns.length, "more warning check")}: ${idList(moreWarns)}`);
  if (moreAccepted.length > 0) rest.push(`${counted(moreAccepted.length, "more expected failure")}: ${idList(moreAccepted)}`);
  const counts = tally(s);
  const notAnnotated =
    rest.length > 0 ? `\nNot annotated (at most ${GITHUB_MAX_ANNOTATIONS} errors and ${GITHUB_MAX_ANNOTATIONS} warnings are): ${rest.join("; ")}` : "";
  const policy = policyOf(r) ? `\nPolicy: ${policyOf(r)}` : "";
  const asExpected = accepted.length > 0 ? `\nExpected by the baseline, so not errors: ${idList(accepted)}` : "";
  out.push(command("notice", `cgp-conform: ${verdict}`, `${counts}${policy}${asExpected}${notAnnotated}`));
  return out.join("\n") + "\n";
}
