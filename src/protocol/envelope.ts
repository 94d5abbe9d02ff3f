/** The protocol's envelopes as JSON values: the words every part of cgp-conform reads them with. */
export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A line that parses as a JSON object, or undefined. */
export function parseObj(line: string | undefined): Obj | undefined {
  if (line === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(line);
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The frames of a frames envelope, or [] for anything else. */
export function framesIn(env: Obj | undefined): Obj[] {
  const result = env?.type === "frames" && isObj(env.result) ? env.result : undefined;
  return Array.isArray(result?.frames) ? result.frames.filter(isObj) : [];
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
