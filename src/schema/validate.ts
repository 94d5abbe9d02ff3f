import { parseUntrusted } from "../protocol/envelope.ts";
import { definitionOf, validateAs, type EnvelopeMode, type SchemaError } from "./index.ts";
import { detect } from "./detect.ts";
import { ENVELOPE, ENVELOPE_KINDS } from "./kinds.ts";

/** The verdict on one envelope of a fixture file. */
export interface ValidationResult {
  /** Position among the file's envelopes (array element, or non-blank NDJSON line). */
  index: number;
  /** 1-based line the envelope starts on, when the input says so (NDJSON, or a single JSON document). */
  line?: number;
  /** The envelope's `type`, when it has a string one. */
  type?: string;
  /** What it was judged as: "envelope" (the branch its `type` selects), or the kind --as named or detection chose (kinds.ts). */
  judged_as: string;
  /** The schema definition that judged it, a pointer into contextgraph-envelope.schema.json; absent where no branch applied (no `type`, or an unknown one). */
  definition?: string;
  /** Set where judged_as was detected (no --as, no `type`): the required members that told. */
  detected_by?: readonly string[];
  /** A document without `type` that detection could not place: the kinds whose required members it has (none, or several), for the hint to give --as. */
  could_be?: string[];
  errors: SchemaError[];
}

function typeOf(env: unknown): string | undefined {
  const t = typeof env === "object" && env !== null ? (env as { type?: unknown }).type : undefined;
  return typeof t === "string" ? t : undefined;
}

/**
 * One document's verdict. Without --as, a document with no `type` whose shape
 * is one bare kind's (detect.ts) is judged as that kind; any other is judged
 * as an envelope, so a document with `type` never escapes its branch.
 */
function judge(env: unknown, index: number, line: number | undefined, mode: EnvelopeMode, as: string | undefined): ValidationResult {
  const type = typeOf(env);
  const place = as === undefined ? detect(env) : { candidates: [] };
  const kind = as ?? ("detected" in place ? place.detected.kind : ENVELOPE);
  const definition = kind !== ENVELOPE ? definitionOf(kind) : ENVELOPE_KINDS.some((k) => k === type) ? definitionOf(type!) : undefined;
  const unplaced = as === undefined && kind === ENVELOPE && isObject(env) && !("type" in env);
  return {
    index,
    ...(line === undefined ? {} : { line }),
    ...(type === undefined ? {} : { type }),
    judged_as: kind,
    ...(definition === undefined ? {} : { definition }),
    ...("detected" in place ? { detected_by: place.detected.members } : {}),
    ...(unplaced && "candidates" in place ? { could_be: place.candidates } : {}),
    errors: validateAs(env, kind, mode),
  };
}

function isObject(v: unknown): v is object {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function parse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const r = parseUntrusted(text);
  return r.ok ? r : { ok: false, error: r.why };
}

/**
 * Validates a fixture author's file: one JSON envelope, a JSON array of
 * envelopes, or NDJSON ("exactly one envelope per line", S2; blank lines are
 * skipped). Text that parses as one JSON document is read as JSON; anything
 * else is read line by line, and a line that is not JSON yields one "json" error.
 * `as` judges every document as that kind (kinds.ts); without it, each is
 * an envelope unless detection places it.
 */
export function validateText(text: string, mode: EnvelopeMode, as?: string): ValidationResult[] {
  const whole = parse(text);
  if (whole.ok) {
    if (Array.isArray(whole.value)) return whole.value.map((env, i) => judge(env, i, undefined, mode, as));
    const start = text.length - text.trimStart().length;
    return [judge(whole.value, 0, text.slice(0, start).split("\n").length, mode, as)];
  }
  const results: ValidationResult[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    const parsed = parse(line);
    results.push(
      parsed.ok
        ? judge(parsed.value, results.length, i + 1, mode, as)
        : {
            index: results.length,
            line: i + 1,
            judged_as: as ?? ENVELOPE,
            errors: [{ instancePath: "", keyword: "json", message: `not JSON: ${parsed.error}`, schemaPath: "" }],
          },
    );
  });
  return results;
}
