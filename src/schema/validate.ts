import { parseUntrusted } from "../protocol/envelope.ts";
import { validateEnvelope, type EnvelopeMode, type SchemaError } from "./index.ts";

/** The verdict on one envelope of a fixture file. */
export interface ValidationResult {
  /** Position among the file's envelopes (array element, or non-blank NDJSON line). */
  index: number;
  /** 1-based line the envelope starts on, when the input says so (NDJSON, or a single JSON document). */
  line?: number;
  /** The envelope's `type`, when it has a string one. */
  type?: string;
  errors: SchemaError[];
}

function typeOf(env: unknown): string | undefined {
  const t = typeof env === "object" && env !== null ? (env as { type?: unknown }).type : undefined;
  return typeof t === "string" ? t : undefined;
}

function judge(env: unknown, index: number, line: number | undefined, mode: EnvelopeMode): ValidationResult {
  const type = typeOf(env);
  return {
    index,
    ...(line === undefined ? {} : { line }),
    ...(type === undefined ? {} : { type }),
    errors: validateEnvelope(env, mode),
  };
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
 */
export function validateText(text: string, mode: EnvelopeMode): ValidationResult[] {
  const whole = parse(text);
  if (whole.ok) {
    if (Array.isArray(whole.value)) return whole.value.map((env, i) => judge(env, i, undefined, mode));
    const start = text.length - text.trimStart().length;
    return [judge(whole.value, 0, text.slice(0, start).split("\n").length, mode)];
  }
  const results: ValidationResult[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    const parsed = parse(line);
    results.push(
      parsed.ok
        ? judge(parsed.value, results.length, i + 1, mode)
        : {
            index: results.length,
            line: i + 1,
            errors: [{ instancePath: "", keyword: "json", message: `not JSON: ${parsed.error}`, schemaPath: "" }],
          },
    );
  });
  return results;
}
