import { site, type Evidence } from "./check.ts";
import type { TranscriptEvent } from "../../src/transcript/types.ts";
import { envelopes } from "../../src/transcript/view.ts";
import { validateEnvelope, type SchemaError } from "../../src/schema/index.ts";
import { ownerOf } from "../../src/schema/owners.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { show } from "./show.ts";
import { common } from "./common-findings.ts";

/** The envelope vocabulary of this revision (§2); a type outside it may be a later 1.x addition, so it is not validated. */
export const ENVELOPE_TYPES = ["handshake", "handshake_ack", "query", "frames", "verify", "verified", "shutdown", "error"];

/** The value a JSON pointer names, for evidence. */
export function at(value: unknown, pointer: string): unknown {
  let v = value;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(v)) v = v[Number(key)];
    else if (isObj(v)) v = v[key];
    else return undefined;
  }
  return v;
}

export interface SchemaFindings {
  /** Envelopes received and validated. */
  validated: number;
  /** Violations, by the anchor that owns the offending field. */
  byOwner: Map<string, Evidence[]>;
}

function evidenceOf(type: string, env: unknown, e: SchemaError, line: TranscriptEvent): Evidence {
  // The schema's wire shapes and the grammars its patterns spell are normative (§1): a violation fails, whatever
  // the level of the check that owns the field, labelled as the wire shape it breaks (docs/readings.md, rule 2).
  // additionalProperties is never judged: envelopes are validated in interop mode (U1).
  const params = {
    type,
    line: line.n,
    probe: line.probe,
    pointer: e.instancePath,
    error: e.message,
    keyword: e.keyword,
    schema_path: e.schemaPath,
    actual: e.keyword === "required" || e.keyword === "additionalProperties" ? null : show(at(env, e.instancePath), 80),
  };
  return { ...common.say("schema", params, { lines: [line.n] }), site: site(line.n, e.instancePath) };
}

/**
 * Validate every envelope the provider sent, in interop mode (U1: unknown
 * members ignored), and hand each violation to the anchor that owns the field.
 */
export function schemaFindings(events: readonly TranscriptEvent[]): SchemaFindings {
  const byOwner = new Map<string, Evidence[]>();
  let validated = 0;
  for (const { e, env } of envelopes(events)) {
    if (e.dir !== "recv") continue;
    // §2: an envelope type a receiver does not implement is not rejected (the vocabulary grows additively, §13).
    if (!isObj(env) || typeof env.type !== "string" || !ENVELOPE_TYPES.includes(env.type)) continue;
    validated++;
    for (const err of validateEnvelope(env, "interop")) {
      const owner = ownerOf(env.type, err);
      let mine = byOwner.get(owner);
      if (!mine) byOwner.set(owner, (mine = []));
      mine.push(evidenceOf(env.type, env, err, e));
    }
  }
  return { validated, byOwner };
}
