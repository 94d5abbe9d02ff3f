import type { ChalkInstance } from "chalk";
import type { ValidationResult } from "../schema/validate.ts";

/** Human output of `cgp-conform validate`: one line per envelope, its errors beneath. */
export function renderValidation(file: string, mode: string, results: ValidationResult[], c: ChalkInstance): string {
  const out: string[] = [];
  for (const r of results) {
    const where = `${r.line !== undefined ? `line ${r.line}` : `envelope ${r.index}`}${r.type ? ` (${r.type})` : ""}`;
    if (r.errors.length === 0) {
      out.push(`${c.green("ok  ")} ${where}`);
      continue;
    }
    out.push(`${c.red.bold("BAD ")} ${where}`);
    for (const e of r.errors) out.push(`       ${e.instancePath || "(the envelope)"} ${e.message} ${c.dim(`[${e.schemaPath}]`)}`);
  }
  const bad = results.filter((r) => r.errors.length > 0).length;
  out.push("", `${file}: ${results.length} envelopes, ${results.length - bad} valid, ${bad} invalid (${mode} mode)`);
  return out.join("\n") + "\n";
}
