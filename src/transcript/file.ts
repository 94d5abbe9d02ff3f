import { parseUntrusted } from "../protocol/envelope.ts";
import type { Transcript, TranscriptEvent, TranscriptHeader } from "./types.ts";
import { decodeUtf8, fromHex, isUtf8 } from "./bytes.ts";
import { checkRunFacts, deriveRunFacts, factsMismatch } from "./run-facts.ts";

/** Serialise a transcript (a provider run's or a host run's) as NDJSON: the header, then one event per line. */
export function toNdjson(t: { header: object; events: readonly object[] }): string {
  return [t.header, ...t.events].map((o) => JSON.stringify(o)).join("\n") + "\n";
}

export class TranscriptFormatError extends Error {}

const DIRECTIONS = new Set(["send", "recv", "stderr", "note", "file"]);
const NOTES = new Set([
  "timeout",
  "eof",
  "exit",
  "killed",
  "spawn-error",
  "connect-error",
  "deadline",
  "abandoned",
  "flood",
  "withheld",
  "unsent",
  "files",
  "http-error",
  "resent",
  "passed-over",
  "unanswered",
  "canary",
]);
const UNREAD = new Set(["not-local", "missing", "not-regular", "outside-roots", "too-large", "remote-provider"]);

/** The type of one member of a transcript line, as its reader checks it. */
export type Kind = "string" | "number" | "boolean" | "int" | "strings" | "string|null" | "int|null";
export const is = (v: unknown, k: Kind): boolean => {
  switch (k) {
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return typeof v === "boolean";
    case "int":
      return Number.isInteger(v);
    case "strings":
      return Array.isArray(v) && v.every((x) => typeof x === "string");
    case "string|null":
      return v === null || typeof v === "string";
    case "int|null":
      return v === null || Number.isInteger(v);
  }
};

/** The members an event may carry, and their types: a transcript is input like any other, checked before anything reads it. */
const EVENT_FIELDS: Record<string, Kind> = {
  probe: "string",
  session: "string",
  t: "number",
  step: "string",
  line: "string",
  line_hex: "string",
  bytes: "int",
  overLong: "boolean",
  status: "int",
  text: "string",
  waitedMs: "number",
  expecting: "string",
  exitCode: "int|null",
  signal: "string|null",
  reason: "string",
  uri: "string",
  path: "string",
  data: "string",
  error: "string",
  sha256: "string",
  seq: "int",
  reply_to: "int",
};
const PAIRINGS = new Set(["duplicate", "wrong-type", "unasked"]);
const FATES = new Set(["timeout", "exit", "eof", "deadline", "unreachable", "http-error", "flood", "chased", "session-ended"]);
const REQUIRED = ["probe", "session", "t", "step", "dir"];

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkEvent(e: unknown, line: number): TranscriptEvent {
  const bad = (why: string): never => {
    throw new TranscriptFormatError(`line ${line} is not a transcript event: ${why}`);
  };
  if (!isRecord(e)) return bad("not a JSON object");
  for (const k of REQUIRED) if (e[k] === undefined) bad(`it has no ${k}`);
  if (typeof e.dir !== "string" || !DIRECTIONS.has(e.dir)) bad(`dir ${JSON.stringify(e.dir)} is not one of ${[...DIRECTIONS].join(", ")}`);
  for (const [k, kind] of Object.entries(EVENT_FIELDS)) if (e[k] !== undefined && !is(e[k], kind)) bad(`${k} must be ${kind}`);
  if (e.note !== undefined && (typeof e.note !== "string" || !NOTES.has(e.note))) bad(`note ${JSON.stringify(e.note)} is not a kind this tool records`);
  if (e.unread !== undefined && (typeof e.unread !== "string" || !UNREAD.has(e.unread)))
    bad(`unread ${JSON.stringify(e.unread)} is not a kind this tool records`);
  if (e.aim !== undefined && !(isRecord(e.aim) && is(e.aim.rules, "strings") && is(e.aim.why, "string"))) bad("aim must be { rules: string[], why: string }");
  if (e.line_hex !== undefined) checkLineHex(e, bad);
  if (e.pairing !== undefined && !(typeof e.pairing === "string" && PAIRINGS.has(e.pairing)))
    bad(`pairing ${JSON.stringify(e.pairing)} is not a kind this tool records`);
  if (e.expect !== undefined && !(isRecord(e.expect) && is(e.expect.types, "strings") && typeof e.expect.required === "boolean"))
    bad("expect must be { types: string[], required: boolean }");
  if (e.cause !== undefined && !(isRecord(e.cause) && typeof e.cause.kind === "string" && FATES.has(e.cause.kind)))
    bad("cause must be a fate this tool records");
  return { ...(e as unknown as TranscriptEvent), n: line };
}

/** line_hex is the exact bytes of a sent line that is not UTF-8, and `line` their decoding: a record that says anything else is not ours. */
function checkLineHex(e: Record<string, unknown>, bad: (why: string) => never): void {
  if (!(e.dir === "send" || e.note === "unsent")) bad("line_hex belongs to a line sent (or not sent)");
  const bytes = fromHex(e.line_hex as string);
  if (!bytes) return bad("line_hex must be lowercase hex, two digits a byte");
  if (isUtf8(bytes)) bad("line_hex holds UTF-8, which line says exactly: it is only for bytes that are not");
  if (e.line !== decodeUtf8(bytes)) bad("line is not the UTF-8 decoding of line_hex");
}

/** The header as read: its run facts absent where it was saved before they were recorded. */
function checkHeader(h: unknown): Omit<TranscriptHeader, "run_facts"> & Partial<Pick<TranscriptHeader, "run_facts">> {
  const bad = (why: string): never => {
    throw new TranscriptFormatError(`line 1 is not a cgp-conform transcript header: ${why}`);
  };
  if (!isRecord(h) || h.cgp_conform_transcript !== 1) return bad("it has no cgp_conform_transcript: 1");
  if (typeof h.host_version !== "string" || !Number.isInteger(h.timeout_ms) || (h.timeout_ms as number) <= 0)
    bad("host_version or timeout_ms is missing or of the wrong type");
  const target = h.target;
  if (!isRecord(target)) return bad("it has no target");
  if (target.kind === "stdio") {
    if (!is(target.command, "strings")) bad("target.command must be an array of strings");
    if (target.in_process !== undefined && target.in_process !== true) bad("target.in_process must be true when present");
  } else if (target.kind === "http") {
    if (typeof target.url !== "string" || !URL.canParse(target.url)) bad("target.url is not a URL");
  } else bad("target.kind must be stdio or http");
  for (const k of ["probes", "trust_roots"]) if (h[k] !== undefined && !is(h[k], "strings")) bad(`${k} must be an array of strings`);
  if (h.sessions !== undefined && !(isRecord(h.sessions) && Object.values(h.sessions).every((v) => is(v, "strings"))))
    bad("sessions must map names to arrays of probe names");
  if (h.consent !== undefined) {
    // The consent record decides whether the run could be made: read as strictly as an event, every member the shape it has.
    if (!(isRecord(h.consent) && is(h.consent.grants, "strings"))) bad("consent must carry grants, an array of strings");
    const c = h.consent as Record<string, unknown>;
    for (const k of ["needed", "granted", "missing"]) if (c[k] !== undefined && !is(c[k], "strings")) bad(`consent.${k} must be an array of strings`);
    if (c.why !== undefined && typeof c.why !== "string") bad("consent.why must be a string");
  }
  if (h.depth !== undefined && !["quick", "standard", "exhaustive"].includes(h.depth as string)) bad("depth must be quick, standard or exhaustive");
  if (h.started_at !== undefined && typeof h.started_at !== "string") bad("started_at must be a string");
  if (h.interrupted !== undefined && !(typeof h.interrupted === "string" && /^SIG[A-Z0-9]+$/.test(h.interrupted)))
    bad("interrupted must be a signal's name, such as SIGINT");
  if (h.duration_ms !== undefined && (typeof h.duration_ms !== "number" || !(h.duration_ms >= 0))) bad("duration_ms must be a number ≥ 0");
  if (
    h.instances !== undefined &&
    !(
      isRecord(h.instances) &&
      ["started", "peak", "jobs"].every(
        (k) => is((h.instances as Record<string, unknown>)[k], "int") && ((h.instances as Record<string, number>)[k] ?? -1) >= 0,
      )
    )
  )
    bad("instances must be { started, peak, jobs }, each an integer ≥ 0");
  const facts = h.run_facts !== undefined ? { run_facts: checkRunFacts(h.run_facts, bad) } : {};
  const consent = isRecord(h.consent)
    ? { needed: [], granted: [], missing: [], ...(h.consent as Partial<TranscriptHeader["consent"]>), grants: h.consent.grants as string[] }
    : { grants: [] };
  return { ...(h as unknown as TranscriptHeader), consent: consent as TranscriptHeader["consent"], ...facts };
}

/** A saved transcript's lines, each parsed as untrusted JSON (a line that is not JSON is an error naming it). */
export function ndjsonLines(text: string | Uint8Array): unknown[] {
  const lines = (typeof text === "string" ? text.split("\n") : splitBytes(text)).filter((l, i, all) => l !== "" || i < all.length - 1);
  if (lines.length === 0) throw new TranscriptFormatError("the file is empty");
  return lines.map((l, i) => {
    const r = parseUntrusted(l);
    if (!r.ok) throw new TranscriptFormatError(`line ${i + 1} is not JSON (${r.why})`);
    return r.value;
  });
}

/**
 * A file's lines, each decoded apart: a line holding a character beyond
 * Latin-1 is two bytes a character, the others stay one (decoded whole, the
 * text and every line cut from it would double: a 15 MiB answer beside one
 * U+FFFD in another line held 30 MiB, and so did each string parsed from it).
 */
function splitBytes(bytes: Uint8Array): string[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: string[] = [];
  for (let start = 0; ; ) {
    const nl = buf.indexOf(0x0a, start);
    out.push(buf.toString("utf8", start, nl === -1 ? buf.length : nl));
    if (nl === -1) return out;
    start = nl + 1;
  }
}

/** Parse a saved transcript, checking every line's shape; line numbers are re-derived from positions. */
export function fromNdjson(text: string | Uint8Array): Transcript {
  const parsed = ndjsonLines(text);
  const header = checkHeader(parsed[0]);
  const events = parsed.slice(1).map((e, i) => checkEvent(e, i + 2));
  const mismatch = header.run_facts && factsMismatch(header.run_facts, events);
  if (mismatch) throw new TranscriptFormatError(`line 1 is not a cgp-conform transcript header: ${mismatch}`);
  // A transcript saved before its header held the run's facts gets them derived from its events, as the recorder derives them.
  return { header: { ...header, run_facts: header.run_facts ?? deriveRunFacts(events) }, events };
}
