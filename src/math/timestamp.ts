/** F4: "valid_from, valid_to, recorded_at, and as_of MUST match YYYY-MM-DDTHH:MM:SS(.f+)?Z." */
export const TIMESTAMP_PROFILE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export function isProfileTimestamp(value: unknown): value is string {
  return typeof value === "string" && TIMESTAMP_PROFILE.test(value);
}
