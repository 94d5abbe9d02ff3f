import { makeChalk } from "../report/color.ts";
import { renderValidation } from "../report/validation.ts";
import { validateText } from "../schema/validate.ts";
import { out, readIn } from "./io.ts";
import { exitCode } from "../verdict/exit.ts";

/** cgp-conform validate FILE: a fixture author's envelopes (or, --as KIND, bare objects) against the schema. */
export function validate(a: { file: string; mode: "lint" | "interop"; json: boolean; as?: string }): number {
  const results = validateText(readIn(a.file), a.mode, a.as);
  out(a.json ? JSON.stringify(results, null, 2) + "\n" : renderValidation(a.file, a.mode, results, makeChalk()));
  return exitCode(results.every((r) => r.errors.length === 0) ? "valid" : "invalid");
}
