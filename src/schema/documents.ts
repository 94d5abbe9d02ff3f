import envelopeSchema from "../../schema/contextgraph-envelope.schema.json" with { type: "json" };
import { BARE_KINDS } from "./kinds.ts";

/**
 * The envelope schema documents, as data: the published (lint) one and the
 * interop one derived from it. No validator is compiled here: the validators
 * are generated from these at build time (src/schema/compile.ts).
 */
export type SchemaDocument = {
  $id: string;
  oneOf: { $ref: string }[];
  $defs: Record<string, { properties?: { type?: { const?: unknown } }; required?: string[] }>;
};

/**
 * "lint": the authoring-strict profile as published (closed objects).
 * "interop": U1, "A receiver MUST ignore an object member it does not recognise".
 */
export type EnvelopeMode = "interop" | "lint";

export const MODES: readonly EnvelopeMode[] = ["lint", "interop"];

const lintSchema = envelopeSchema as unknown as SchemaDocument;

/** Keywords whose value is a map of subschemas, a list of them, or one. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_SINGLE = ["items", "contains", "not", "if", "then", "else", "propertyNames", "additionalProperties", "unevaluatedProperties", "unevaluatedItems"];

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Calls `visit` on every subschema object (subschema positions only: a member named "properties" is not a keyword), with its JSON pointer. */
export function eachSubschema(schema: unknown, at: string, visit: (s: Record<string, unknown>, at: string) => void): void {
  if (!isRecord(schema)) return;
  visit(schema, at);
  for (const k of SCHEMA_MAPS) {
    const m = schema[k];
    if (isRecord(m)) for (const [name, sub] of Object.entries(m)) eachSubschema(sub, `${at}/${k}/${escapePointer(name)}`, visit);
  }
  for (const k of SCHEMA_LISTS) {
    const l = schema[k];
    if (Array.isArray(l)) l.forEach((sub, i) => eachSubschema(sub, `${at}/${k}/${i}`, visit));
  }
  for (const k of SCHEMA_SINGLE) eachSubschema(schema[k], `${at}/${k}`, visit);
}

/**
 * U1 / §13: the published schema's strictness "is a lint, not the interop
 * contract". The interop schema is derived, never hand-kept, so the two
 * profiles cannot drift apart: every closing `false` is removed.
 */
function interopOf(schema: SchemaDocument): SchemaDocument {
  const open = structuredClone(schema);
  eachSubschema(open, "#", (s) => {
    if (s.additionalProperties === false) delete s.additionalProperties;
    if (s.unevaluatedProperties === false) delete s.unevaluatedProperties;
  });
  open.$id = schema.$id.replace(/\.schema\.json$/, ".interop.schema.json");
  return open;
}

let interopSchema: SchemaDocument | undefined;

/** The two schema documents, for tests and tools that inspect them; the interop one is derived on first read (no run validates against it: the validators are generated). */
export const envelopeSchemas: Readonly<Record<EnvelopeMode, SchemaDocument>> = {
  lint: lintSchema,
  get interop(): SchemaDocument {
    interopSchema ??= interopOf(lintSchema);
    return interopSchema;
  },
};

/** Envelope `type` -> the $defs entry the root oneOf selects for it. */
export const BRANCHES: ReadonlyMap<string, string> = new Map(
  lintSchema.oneOf.map(({ $ref }) => {
    const def = $ref.replace("#/$defs/", "");
    const tag = lintSchema.$defs[def]?.properties?.type?.const;
    if (typeof tag !== "string") throw new Error(`envelope schema: ${$ref} has no type const`);
    return [tag, def] as const;
  }),
);

/** The generated module's export name for one (mode, envelope type) validator. */
export const exportName = (mode: EnvelopeMode, tag: string): string => `${mode}_${tag}`;

/** Bare kind -> its $defs entry (kinds.ts), each one checked to be in the schema. */
export const BARE: ReadonlyMap<string, string> = new Map(
  [...BARE_KINDS].map(([kind, def]) => {
    if (!(def in lintSchema.$defs)) throw new Error(`envelope schema: no $defs entry ${def} for kind ${kind}`);
    return [kind, def] as const;
  }),
);

/** The generated module's export name for one (mode, $defs entry) validator of a bare kind: "lint_ContextFrame" (envelope types are lowercase). */
export const bareExportName = (mode: EnvelopeMode, def: string): string => `${mode}_${def}`;

/** The required members of a $defs entry, as published. */
export const requiredOf = (def: string): readonly string[] => lintSchema.$defs[def]?.required ?? [];
