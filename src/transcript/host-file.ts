/**
 * A host transcript on disk (`cgp-conform host --transcript FILE`): the
 * header, then one event per line. Read back by `replay`, which checks
 * every line's shape first: a transcript is input like any other.
 */
import { checkHostRunFacts, deriveHostRunFacts } from "./host-run-facts.ts";
import { factsDiffer } from "./run-facts.ts";
import type { HostEvent, HostTranscript, HostTranscriptHeader } from "./host.ts";
import { is, isRecord, ndjsonLines, TranscriptFormatError, type Kind } from "./file.ts";

/** Whether a parsed first line is a host transcript's header (as opposed to a provider run's). */
export function isHostHeader(v: unknown): boolean {
  return typeof v === "object" && v !== null && (v as Record<string, unknown>).cgp_conform_host_transcript === 1;
}

const DIRS = new Set(["host", "provider", "stdout", "stderr", "note", "context", "usage"]);
const NOTES = new Set([
  "connected",
  "eof",
  "provider-exit",
  "dropped",
  "withheld",
  "unauthorized",
  "host-exit",
  "host-timeout",
  "spawn-error",
  "over-cap",
  "listening",
  "tls-failed",
  "unreadable",
]);
/** The events that may say which provider of a scenario they are of: what the host wrote to a file, or printed, is of none. */
const OF_A_PROVIDER = new Set(["host", "provider", "note"]);
/** A scenario serves at most this many providers ({provider3}). */
const MAX_PROVIDERS = 3;
const AUTH = new Set(["none", "run-token", "other"]);
const FIELDS: Record<string, Kind> = {
  scenario: "string",
  t: "number",
  line: "string",
  bytes: "int",
  overLong: "boolean",
  status: "int",
  leaked: "strings",
  exitCode: "int|null",
  signal: "string|null",
  waitedMs: "number",
  contact: "boolean",
  reason: "string",
  url: "string",
  provider: "int",
};

/** The header as read: its run facts absent where it was saved before they were recorded. */
function checkHeader(h: unknown): Omit<HostTranscriptHeader, "run_facts"> & Partial<Pick<HostTranscriptHeader, "run_facts">> {
  const bad = (why: string): never => {
    throw new TranscriptFormatError(`line 1 is not a cgp-conform host transcript header: ${why}`);
  };
  if (!isRecord(h) || h.cgp_conform_host_transcript !== 1) return bad("it has no cgp_conform_host_transcript: 1");
  if (!is(h.command, "strings") || (h.command as string[]).length === 0) bad("command must be a non-empty array of strings");
  if (h.transport !== "stdio" && h.transport !== "http") bad("transport must be stdio or http");
  if (!Number.isInteger(h.timeout_ms) || (h.timeout_ms as number) <= 0) bad("timeout_ms must be a positive integer");
  if (typeof h.started_at !== "string") bad("started_at must be a string");
  if (h.duration_ms !== undefined && (typeof h.duration_ms !== "number" || !(h.duration_ms >= 0))) bad("duration_ms must be a number ≥ 0");
  if (h.interrupted !== undefined && !(typeof h.interrupted === "string" && /^SIG[A-Z0-9]+$/.test(h.interrupted)))
    bad("interrupted must be a signal's name, such as SIGINT");
  if (!Array.isArray(h.scenarios)) return bad("scenarios must be an array");
  for (const s of h.scenarios) {
    if (
      !isRecord(s) ||
      typeof s.name !== "string" ||
      (s.transport !== "stdio" && s.transport !== "http") ||
      (s.skipped !== undefined && typeof s.skipped !== "string") ||
      (s.providers !== undefined && !(Number.isInteger(s.providers) && (s.providers as number) >= 2 && (s.providers as number) <= MAX_PROVIDERS))
    )
      bad(`each scenario must be { name, transport, skipped?, providers? } (providers: 2 to ${MAX_PROVIDERS})`);
  }
  const facts = h.run_facts !== undefined ? { run_facts: checkHostRunFacts(h.run_facts, bad) } : {};
  return { ...(h as unknown as HostTranscriptHeader), ...facts };
}

function checkEvent(e: unknown, line: number): HostEvent {
  const bad = (why: string): never => {
    throw new TranscriptFormatError(`line ${line} is not a host transcript event: ${why}`);
  };
  if (!isRecord(e)) return bad("not a JSON object");
  if (typeof e.scenario !== "string" || typeof e.t !== "number") bad("it has no scenario or t");
  if (typeof e.dir !== "string" || !DIRS.has(e.dir)) bad(`dir ${JSON.stringify(e.dir)} is not one of ${[...DIRS].join(", ")}`);
  for (const [k, kind] of Object.entries(FIELDS)) if (e[k] !== undefined && !is(e[k], kind)) bad(`${k} must be ${kind}`);
  if (e.note !== undefined && (typeof e.note !== "string" || !NOTES.has(e.note))) bad(`note ${JSON.stringify(e.note)} is not a kind this tool records`);
  if (e.auth !== undefined && (typeof e.auth !== "string" || !AUTH.has(e.auth))) bad(`auth ${JSON.stringify(e.auth)} is not one of ${[...AUTH].join(", ")}`);
  if (e.provider !== undefined) {
    if (!OF_A_PROVIDER.has(e.dir as string)) bad(`a ${e.dir} event is of no one provider, yet it names provider ${JSON.stringify(e.provider)}`);
    if ((e.provider as number) < 0 || (e.provider as number) >= MAX_PROVIDERS) bad(`provider must be 0 to ${MAX_PROVIDERS - 1}`);
  }
  if ((e.dir === "context" || e.dir === "usage") && typeof e.line !== "string") bad(`a ${e.dir} event must carry the line the host wrote`);
  return { ...(e as unknown as HostEvent), n: line };
}

/** Parse a saved host transcript, checking every line's shape; line numbers are re-derived from positions. */
export function hostFromNdjson(text: string | Uint8Array): HostTranscript {
  const parsed = ndjsonLines(text);
  const header = checkHeader(parsed[0]);
  const events = parsed.slice(1).map((e, i) => checkEvent(e, i + 2));
  // The report reads the facts, not the events: facts its own events contradict are refused, not believed.
  const derived = deriveHostRunFacts(header.scenarios, events);
  const differ = header.run_facts && factsDiffer(header.run_facts, derived);
  if (differ) throw new TranscriptFormatError(`line 1 is not a cgp-conform host transcript header: ${differ}`);
  // A transcript saved before its header held the run's facts gets them derived from its events, as the host run derives them.
  return { header: { ...header, run_facts: header.run_facts ?? derived }, events };
}
