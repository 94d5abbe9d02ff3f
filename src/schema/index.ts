import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import reportSchema from "../../schema/report.schema.json" with { type: "json" };
import envelopeSchema from "../../schema/contextgraph-envelope.schema.json" with { type: "json" };

/**
 * The one ajv instance: draft 2020-12, strict about the schemas themselves.
 * allowUnionTypes: the envelope schema spells optional wire members as
 * `["string", "null"]`, as the upstream schema does. verbose: an error then
 * carries the schema object it came from, the only way to name its location
 * when it comes from a $ref that ajv compiled as a separate function.
 */
function makeAjv(): Ajv2020 {
  return new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
}

/**
 * "lint": the authoring-strict profile as published (closed objects).
 * "interop": U1, "A receiver MUST ignore an object member it does not recognise".
 */
export type EnvelopeMode = "interop" | "lint";

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

type SchemaDocument = {
  $id: string;
  oneOf: { $ref: string }[];
  $defs: Record<string, { properties?: { type?: { const?: unknown } } }>;
};

const lintSchema = envelopeSchema as unknown as SchemaDocument;

/** Keywords whose value is a map of subschemas, a list of them, or one. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_SINGLE = ["items", "contains", "not", "if", "then", "else", "propertyNames", "additionalProperties", "unevaluatedProperties", "unevaluatedItems"];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Removes every closing `false` in place, walking subschema positions only (a member named "additionalProperties" is not a keyword). */
function openObjects(schema: unknown): void {
  if (!isRecord(schema)) return;
  if (schema.additionalProperties === false) delete schema.additionalProperties;
  if (schema.unevaluatedProperties === false) delete schema.unevaluatedProperties;
  for (const k of SCHEMA_MAPS) if (isRecord(schema[k])) Object.values(schema[k]).forEach(openObjects);
  for (const k of SCHEMA_LISTS) if (Array.isArray(schema[k])) schema[k].forEach(openObjects);
  for (const k of SCHEMA_SINGLE) openObjects(schema[k]);
}

/**
 * U1 / §13: the published schema's strictness "is a lint, not the interop
 * contract". The interop schema is derived, never hand-kept, so the two
 * profiles cannot drift apart.
 */
function interopOf(schema: SchemaDocument): SchemaDocument {
  const open = structuredClone(schema);
  openObjects(open);
  open.$id = schema.$id.replace(/\.schema\.json$/, ".interop.schema.json");
  return open;
}

const interopSchema = interopOf(lintSchema);

/** The two schema documents, for tests and tools that inspect them. */
export const envelopeSchemas: Readonly<Record<EnvelopeMode, SchemaDocument>> = {
  lint: lintSchema,
  interop: interopSchema,
};

/** Every subschema object of both documents -> its JSON pointer ("#/$defs/…"). */
const LOCATIONS = new WeakMap<object, string>();
function locate(node: unknown, at: string): void {
  if (typeof node !== "object" || node === null) return;
  LOCATIONS.set(node, at);
  for (const [k, v] of Object.entries(node)) locate(v, `${at}/${escapePointer(k)}`);
}
locate(lintSchema, "#");
locate(interopSchema, "#");

/** Envelope `type` -> the $defs entry the root oneOf selects for it. */
const BRANCHES: ReadonlyMap<string, string> = new Map(
  lintSchema.oneOf.map(({ $ref }) => {
    const def = $ref.replace("#/$defs/", "");
    const tag = lintSchema.$defs[def]?.properties?.type?.const;
    if (typeof tag !== "string") throw new Error(`envelope schema: ${$ref} has no type const`);
    return [tag, def] as const;
  }),
);

/** One validator per (mode, envelope), so errors are about the envelope `type` names rather than a oneOf over all eight. */
function compileBranches(ajv: Ajv2020, schema: SchemaDocument): Map<string, ValidateFunction> {
  const out = new Map<string, ValidateFunction>();
  for (const [tag, def] of BRANCHES) {
    const validate = ajv.getSchema(`${schema.$id}#/$defs/${def}`);
    if (!validate) throw new Error(`envelope schema: cannot compile ${def}`);
    out.set(tag, validate);
  }
  return out;
}

interface Compiled {
  report: ValidateFunction;
  envelopes: Record<EnvelopeMode, Map<string, ValidateFunction>>;
}

let compiled: Compiled | undefined;

/**
 * Compiled on first use, not at import: every process that imports the CLI
 * (the reference provider among them, started by the dozen) would otherwise
 * pay for it at start-up.
 */
function validators(): Compiled {
  if (compiled) return compiled;
  const ajv = makeAjv();
  ajv.addSchema(lintSchema);
  ajv.addSchema(interopSchema);
  compiled = {
    report: ajv.compile(reportSchema),
    envelopes: { lint: compileBranches(ajv, lintSchema), interop: compileBranches(ajv, interopSchema) },
  };
  return compiled;
}

/** Validates a `--json` run report (schema/report.schema.json). */
export function reportValidator(): ValidateFunction {
  return validators().report;
}

const TYPES = [...BRANCHES.keys()].join(", ");

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

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
      return isRecord(e.schema) && Object.keys(e.schema).length === 0 ? "must not be present" : (e.message ?? e.keyword);
    default:
      return e.message ?? e.keyword;
  }
}

/** ajv's error, restated against the offending member and an absolute schema pointer. */
function toSchemaError(e: ErrorObject): SchemaError {
  // ajv's own schemaPath restarts at "#" inside a $ref it compiled separately.
  const parent = isRecord(e.parentSchema) ? LOCATIONS.get(e.parentSchema) : undefined;
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
  return errors.filter(
    (e) =>
      e.keyword !== "unevaluatedProperties" ||
      !errors.some((o) => o !== e && (o.instancePath === e.instancePath || o.instancePath.startsWith(`${e.instancePath}/`))),
  );
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
  const validate = typeof tag === "string" ? validators().envelopes[mode].get(tag) : undefined;
  if (!validate) {
    const message = `unknown envelope type ${JSON.stringify(tag)}; expected one of ${TYPES}`;
    return [{ instancePath: "/type", keyword: "oneOf", message, schemaPath: ROOT_PATH }];
  }
  if (validate(env)) return [];
  return withoutEchoes((validate.errors ?? []).filter((e) => e.keyword !== "if").map(toSchemaError));
}
