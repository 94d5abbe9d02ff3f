import type { ChalkInstance } from "chalk";
import type { ValidationResult } from "../schema/validate.ts";

/** "a ContextFrame", "an Attestation": the definition a pointer names, with its article. */
function named(definition: string | undefined, kind: string): string {
  const name = definition?.replace("#/$defs/", "") ?? kind;
  return `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
}

/** What a result was judged as, where that is not simply its envelope `type`. */
function judged(r: ValidationResult): string {
  if (r.detected_by) return ` judged as ${named(r.definition, r.judged_as)} (detected: no \`type\`, has ${r.detected_by.join(", ")}; give --as to choose)`;
  if (r.judged_as !== "envelope") return ` judged as ${named(r.definition, r.judged_as)} (--as ${r.judged_as})`;
  return "";
}

/** The hint beneath a document with no `type` that detection could not place. */
function hint(r: ValidationResult): string | undefined {
  if (r.could_be === undefined) return undefined;
  const which = r.could_be.length === 0 ? "it has the required members of no kind" : `it has the required members of ${r.could_be.join(" and of ")}`;
  return `hint: no \`type\`, so not an envelope; to judge a bare object, give --as KIND (${which}; cgp-conform validate --help lists the kinds)`;
}

/** Human output of `cgp-conform validate`: one line per document, its errors beneath. */
export function renderValidation(file: string, mode: string, results: ValidationResult[], c: ChalkInstance): string {
  const out: string[] = [];
  const bareAny = results.some((r) => r.judged_as !== "envelope");
  for (const r of results) {
    const where = `${r.line !== undefined ? `line ${r.line}` : `${bareAny ? "document" : "envelope"} ${r.index}`}${r.type ? ` (${r.type})` : ""}${judged(r)}`;
    if (r.errors.length === 0) {
      out.push(`${c.green("ok  ")} ${where}`);
      continue;
    }
    out.push(`${c.red.bold("BAD ")} ${where}`);
    const whole = r.judged_as === "envelope" ? "(the envelope)" : "(the object)";
    for (const e of r.errors) out.push(`       ${e.instancePath || whole} ${e.message} ${c.dim(`[${e.schemaPath}]`)}`);
    const h = hint(r);
    if (h !== undefined) out.push(`       ${c.dim(h)}`);
  }
  const bad = results.filter((r) => r.errors.length > 0).length;
  out.push("", `${file}: ${results.length} ${bareAny ? "documents" : "envelopes"}, ${results.length - bad} valid, ${bad} invalid (${mode} mode)`);
  return out.join("\n") + "\n";
}
