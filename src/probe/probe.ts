import type { Session } from "./session.ts";
import type { Obj } from "../protocol/envelope.ts";
import type { FileRecord } from "./provenance-files.ts";
import { GENEROUS, type Depth, type ProbeSpec } from "../protocol/probes.ts";

export interface ProbeContext {
  /** The session's handshake_ack (present: probes run only after one). */
  ack: Obj | undefined;
  /** The provider declared capabilities.correlation, so requests may carry an id. */
  correlation: boolean;
  /** How long a provider may take to exit after shutdown. */
  graceMs: number;
  transport: "stdio" | "http";
  /** How many derived stimuli to send (--depth). */
  depth: Depth;
  /**
   * Digest the files these file: URIs name, as provenance-files reads them (under the trusted roots only):
   * present when a check compares the bytes with a later reading (F5).
   */
  digestFiles?: (uris: readonly string[]) => FileRecord[];
}

/** A named, scripted exchange, as its spec declares it. A probe only talks and records; it never scores. */
export interface Probe extends ProbeSpec {
  run(s: Session, ctx: ProbeContext): Promise<void>;
}

export function defineProbe(p: Probe): Probe {
  return p;
}

export { GENEROUS };

/** A query envelope; the id is attached only when correlation was negotiated (H4 host rule). */
export function query(ctx: ProbeContext, id: string, fields: Obj): Obj {
  const q: Obj = {
    goal: "cgp-conform probe: return your most relevant frames",
    query_text: "conformance probe",
    kinds: [],
    anchors: [],
    ...GENEROUS,
    ...fields,
  };
  return { type: "query", ...(ctx.correlation ? { id } : {}), query: q };
}
