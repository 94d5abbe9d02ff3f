import type { EvidenceRecord } from "../../src/verdict/status.ts";

/** One observation a check makes: a rule held, or was broken, at these lines. */
export type Evidence = EvidenceRecord & {
  /**
   * The places on the wire this finding judged, each a site(): a schema
   * violation at one of them is the same cause, so the engine drops it (one
   * cause, one finding). Scoring data only: never rendered.
   */
  judges?: readonly string[];
  /** A schema violation's place on the wire, a site(), for judges to claim. */
  site?: string;
  /** The params that make findings of one code different defects, for grouping (see Wording.apart). Scoring data only. */
  apart?: string;
};

/** One member of one envelope: its transcript line and the JSON pointer into it. */
export const site = (line: number, pointer: string): string => `${line} ${pointer}`;
/** A place on the wire in every envelope of the run (the acks of every session, which all carry one provider's version): for judges. */
export const everySite = (pointer: string): string => `* ${pointer}`;
/** Whether a finding that judges these places judged this one (its own line, or every line). */
export const judgedAt = (judges: ReadonlySet<string>, at: string): boolean => judges.has(at) || judges.has(everySite(at.slice(at.indexOf(" ") + 1)));
