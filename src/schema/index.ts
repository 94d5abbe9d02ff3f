import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { BARE, bareExportName, BRANCHES, escapePointer, exportName, isRecord, MODES, type EnvelopeMode } from "./documents.ts";
import { ENVELOPE } from "./kinds.ts";
import * as generated from "./validators.generated.js";
import { LOCATION } from "./compile-names.ts";

export { envelopeSchemas, type EnvelopeMode } from "./documents.ts";

/**
 * One violation. For `required`, `additionalProperties` and
 * `unevaluatedProperties`, instancePath names the missing or unexpected member
 * itself, not the object holding it, so the owner of the field is the owner of
 * the error. schemaPath is a pointer into contextgraph-envelope.schema.json.
 */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  message: string;
  schemaPath: string;
}

/**
 * One validator per (mode, envelope type), generated at build time (npm run
 * registry) so that no run compiles a schema: errors are about the envelope
 * `type` names rather than a oneOf over all eight.
 */
const VALIDATORS: Record<EnvelopeMode, ReadonlyMap<string, ValidateFunction>> = Object.fromEntries(
  MODES.map((mode) => [mode, new Map([...BRANCHES.keys()].map((tag) => [tag, (generated as Record<string, ValidateFunction>)[exportName(mode, tag)]!]))]),
) as unknown as Record<EnvelopeMode, ReadonlyMap<string, ValidateFunction>>;

/** One validator per (mode, bare kind), compiled from the same schema as the envelopes' (validate --as). */
const BARE_VALIDATORS: Record<EnvelopeMode, ReadonlyMap<string, ValidateFunction>> = Object.fromEntries(
  MODES.map((mode) => [mode, new Map([...BARE].map(([kind, def]) => [kind, (generated as Record<string, ValidateFunction>)[bareExportName(mode, def)]!]))]),
) as unknown as Record<EnvelopeMode, ReadonlyMap<string, ValidateFunction>>;

const TYPES = [...BRANCHES.keys()].join(", ");

function messageOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "enum":
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "const":
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case "minLength":
      return p.limit === 1 ? "must not be empty" : (e.message ?? e.keyword);
    case "not":
      return isRecord(e.schema) && Object.keys(e.schema).every((k) => k === LOCATION) ? "must not be present" : (e.message ?? e.keyword);
    default:
      return e.message ?? e.keyword;
  }
}

/** ajv's error, restated against the offending member and an absolute schema pointer. */
function toSchemaError(e: ErrorObject): SchemaError {
  // ajv's own schemaPath restarts at "#" inside a $ref it compiled separately; the subschema names where it is.
  const parent = isRecord(e.parentSchema) && typeof e.parentSchema[LOCATION] === "string" ? e.parentSchema[LOCATION] : undefined;
  const schemaPath = parent === undefined ? e.schemaPath : `${parent}/${e.keyword}`;
  const p = e.params as Record<string, unknown>;
  const member = (p.missingProperty ?? p.additionalProperty ?? p.unevaluatedProperty) as string | undefined;
  if (member === undefined) return { instancePath: e.instancePath, keyword: e.keyword, message: messageOf(e), schemaPath };
  const message =
    e.keyword === "required"
      ? `required member "${member}" is missing`
      : `member "${member}" is not allowed here (authoring-strict lint; U1 lets an interop receiver ignore it)`;
  return { instancePath: `${e.instancePath}/${escapePointer(member)}`, keyword: e.keyword, message, schemaPath };
}

/**
 * A member whose subschema failed is "unevaluated" too (2020-12 drops the
 * failed branch's annotations); it is reported once, by the subschema.
 */
function withoutEchoes(errors: SchemaError[]): SchemaError[] {
  if (!errors.some((e) => e.keyword === "unevaluatedProperties")) return errors;
  // Every path an error names, and every path that has an error strictly below it: one pass, so a large envelope's errors stay linear.
  const exact = new Map<string, number>();
  const below = new Set<string>();
  for (const o of errors) {
    const p = o.instancePath;
    exact.set(p, (exact.get(p) ?? 0) + 1);
    for (let i = p.lastIndexOf("/"); i >= 0; i = i > 0 ? p.lastIndexOf("/", i - 1) : -1) below.add(p.slice(0, i));
  }
  const echoed = (e: SchemaError): boolean => (exact.get(e.instancePath) ?? 0) > 1 || below.has(e.instancePath);
  return errors.filter((e) => e.keyword !== "unevaluatedProperties" || !echoed(e));
}

const ROOT_PATH = "#/oneOf";

/**
 * Validates one envelope against the branch its `type` selects. "lint" is the
 * schema as written; "interop" ignores unknown members (U1). Errors are in
 * schema order, without ajv's "must match then schema" echoes (the failing
 * branch reports the detail).
 */
export function validateEnvelope(env: unknown, mode: EnvelopeMode): SchemaError[] {
  if (!isRecord(env)) {
    return [{ instancePath: "", keyword: "type", message: "an envelope must be a JSON object", schemaPath: ROOT_PATH }];
  }
  if (!("type" in env)) {
    return [{ instancePath: "/type", keyword: "required", message: 'required member "type" is missing', schemaPath: ROOT_PATH }];
  }
  const tag = env.type;
  const validate = typeof tag === "string" ? VALIDATORS[mode].get(tag) : undefined;
  if (!validate) {
    const message = `unknown envelope type ${JSON.stringify(tag)}; expected one of ${TYPES}`;
    return [{ instancePath: "/type", keyword: "oneOf", message, schemaPath: ROOT_PATH }];
  }
  return errorsOf(validate, env);
}

function errorsOf(validate: ValidateFunction, doc: unknown): SchemaError[] {
  if (validate(doc)) return [];
  return withoutEchoes((validate.errors ?? []).filter((e) => e.keyword !== "if").map(toSchemaError));
}

/** The schema definition a kind names (validate --as): a pointer into contextgraph-envelope.schema.json; none for "envelope", whose branch the document's `type` selects. */
export function definitionOf(kind: string): string | undefined {
  const def = BRANCHES.get(kind) ?? BARE.get(kind);
  return def === undefined ? undefined : `#/$defs/${def}`;
}

/**
 * Validates one document as `kind` (kinds.ts): "envelope" is validateEnvelope;
 * an envelope type is that branch whatever the document's `type` says (a
 * mismatch is the branch's own "must be" error at /type); a bare kind is its
 * $defs entry. The mode applies as it does to envelopes.
 */
export function validateAs(doc: unknown, kind: string, mode: EnvelopeMode): SchemaError[] {
  if (kind === ENVELOPE) return validateEnvelope(doc, mode);
  const validate = VALIDATORS[mode].get(kind) ?? BARE_VALIDATORS[mode].get(kind);
  if (!validate) throw new Error(`no kind named ${JSON.stringify(kind)}`);
  // Every kind is an object: one error says so, not one per branch of its allOf.
  if (!isRecord(doc)) return [{ instancePath: "", keyword: "type", message: "must be a JSON object", schemaPath: `${definitionOf(kind)}/type` }];
  return errorsOf(validate, doc);
}
