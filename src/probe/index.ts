import asOf from "./as-of.ts";
import budgetSqueeze from "./budget-squeeze.ts";
import correlation from "./correlation.ts";
import { embeddingMismatch, embeddingOk } from "./embedding.ts";
import foreignVersion, { foreignPrefix } from "./foreign-version.ts";
import graphAnchors from "./graph-anchors.ts";
import handshake from "./handshake.ts";
import kindsQuery from "./kinds-query.ts";
import malformedBytes from "./malformed-bytes.ts";
import malformedInput from "./malformed-input.ts";
import type { Probe } from "./probe.ts";
import { PROBE_SPECS, PROVENANCE_FILES } from "../protocol/probes.ts";
import representations from "./representations.ts";
import sampleQuery from "./sample-query.ts";
import shutdown from "./shutdown.ts";
import unadvertisedRepresentation from "./unadvertised-representation.ts";
import unknownKind from "./unknown-kind.ts";
import unknownMembers from "./unknown-members.ts";
import unknownType from "./unknown-type.ts";
import verify from "./verify.ts";

const IMPLEMENTED: readonly Probe[] = [
  handshake,
  sampleQuery,
  budgetSqueeze,
  kindsQuery,
  asOf,
  graphAnchors,
  representations,
  embeddingOk,
  verify,
  foreignVersion,
  foreignPrefix,
  malformedInput,
  malformedBytes,
  unknownType,
  correlation,
  unknownMembers,
  unknownKind,
  embeddingMismatch,
  unadvertisedRepresentation,
  shutdown,
];

/** Every probe that talks, in the transcript order PROBE_SPECS declares (provenance-files only reads). */
export const PROBES: readonly Probe[] = PROBE_SPECS.filter((spec) => spec !== PROVENANCE_FILES).map((spec) => {
  const p = IMPLEMENTED.find((x) => x.name === spec.name);
  if (!p) throw new Error(`probe ${spec.name} is declared but not implemented`);
  return p;
});

export function probeByName(name: string): Probe {
  const p = PROBES.find((x) => x.name === name);
  if (!p) throw new Error(`no probe named ${name}`);
  return p;
}
