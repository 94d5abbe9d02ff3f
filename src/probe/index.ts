import budgetSqueeze from "./budget-squeeze.ts";
import foreignVersion from "./foreign-version.ts";
import handshake from "./handshake.ts";
import malformedInput from "./malformed-input.ts";
import type { Probe } from "./probe.ts";
import sampleQuery from "./sample-query.ts";
import shutdown from "./shutdown.ts";
import unknownType from "./unknown-type.ts";

/** Every probe, in transcript order. */
export const PROBES: readonly Probe[] = [handshake, sampleQuery, budgetSqueeze, foreignVersion, malformedInput, unknownType, shutdown];

export function probeByName(name: string): Probe {
  const p = PROBES.find((x) => x.name === name);
  if (!p) throw new Error(`no probe named ${name}`);
  return p;
}
