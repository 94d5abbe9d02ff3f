/** Quote a value for evidence text, shortened so a hostile value cannot flood the report. */
export function show(v: unknown, max = 120): string {
  const s = v === undefined ? "absent" : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max)}…(${s.length} chars)` : s;
}
