/** The protocol's envelopes as JSON values: the words every part of cgp-conform reads them with. */
export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The deepest nesting any envelope of the protocol needs is a handful of
 * levels; a line nested deeper than this is refused before it is parsed, so
 * no parser, walker, validator or renderer downstream ever recurses on it.
 */
export const MAX_DEPTH = 256;

/** How deeply a JSON text nests arrays and objects, scanned without parsing (strings skipped); stops counting past `limit`. */
export function nestingDepth(text: string, limit = MAX_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * Whether a JSON text nests deeper than `limit`. Nesting needs a bracket a level, so a text with `limit` brackets or
 * fewer in all (counted by the runtime's own search, strings and all) cannot: only a text with more is scanned.
 */
export function deeperThan(text: string, limit = MAX_DEPTH): boolean {
  let brackets = 0;
  for (const open of ["{", "["])
    for (let i = text.indexOf(open); i !== -1; i = text.indexOf(open, i + 1)) if (++brackets > limit) return nestingDepth(text, limit) > limit;
  return false;
}

/** Parse JSON that a provider or a file supplied: undefined for invalid JSON, or for nesting deeper than MAX_DEPTH. */
export function parseUntrusted(text: string): { ok: true; value: unknown } | { ok: false; why: string } {
  if (deeperThan(text)) return { ok: false, why: `nested deeper than ${MAX_DEPTH} levels` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, why: (e as Error).message };
  }
}

/** A line that parses as a JSON object (nested no deeper than MAX_DEPTH), or undefined. */
export function parseObj(line: string | undefined): Obj | undefined {
  if (line === undefined) return undefined;
  if (deeperThan(line)) return undefined;
  try {
    const v: unknown = JSON.parse(line);
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The envelope a line reads as to a lenient receiver, one whose parser takes
 * a raw control character inside a string as it is (RFC 8259 §9: "A JSON
 * parser MAY accept non-JSON forms or extensions"): what a host must judge
 * a line by before it may send it (C2 binds any query payload).
 */
export function leniently(line: string): Obj | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is being escaped
  return parseObj(line) ?? parseObj(line.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
}

/** The frames of a frames envelope, or [] for anything else. */
export function framesIn(env: Obj | undefined): Obj[] {
  const result = env?.type === "frames" && isObj(env.result) ? env.result : undefined;
  return Array.isArray(result?.frames) ? result.frames.filter(isObj) : [];
}

/** The object frames of a frames envelope, each with its index in result.frames as sent (entries that are no object are skipped, not counted out). */
export function framesAt(env: Obj | undefined): { frame: Obj; index: number }[] {
  const result = env?.type === "frames" && isObj(env.result) ? env.result : undefined;
  if (!Array.isArray(result?.frames)) return [];
  return result.frames.flatMap((frame: unknown, index: number) => (isObj(frame) ? [{ frame, index }] : []));
}

/**
 * Whether a reply answers a sync query: it carries the sync id, or it is a
 * frames envelope with no id (no correlation, or a provider that drops ids:
 * H4's to judge, not a reason to stall).
 */
export function isSyncAnswer(env: Obj, syncId: unknown): boolean {
  if (syncId !== undefined && env.id === syncId) return env.type === "frames" || env.type === "error";
  return env.type === "frames" && env.id === undefined;
}
