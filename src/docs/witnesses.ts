import { MODES } from "../../misbehave/index.ts";
import { HOST_MODES } from "../../misbehave/host/index.ts";

// Apart from tables.ts, so that list and explain load the modes alone, not every registry the documentation tables read.

/** Modes that must make a check fail (or, for a rule with no keyword or a SHOULD sub-rule, warn): its witnesses. */
export function witnesses(id: string): string[] {
  return MODES.filter((m) => m.expectFail.includes(id) || (m.expectWarn ?? []).includes(id)).map((m) => m.name);
}

/** Host modes that must make a host check fail (or warn, or inform): its witnesses. */
export function hostWitnesses(id: string): string[] {
  return HOST_MODES.filter((m) => m.expectFail.includes(id) || (m.expectWarn ?? []).includes(id) || (m.expectInfo ?? []).includes(id)).map((m) => m.name);
}
