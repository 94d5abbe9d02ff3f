import { EGRESS } from "../protocol/scopes.ts";
import { remoteHost } from "../protocol/loopback.ts";
import { isObj, type Obj } from "../protocol/envelope.ts";
import type { ConsentRecord } from "../transcript/types.ts";

export interface ConsentNeed {
  /** What needs a grant before any query payload moves (C1, C2, C6). */
  scopes: string[];
  /** Why each is needed. */
  why: string;
}

/**
 * What must be consented to before a query payload goes to this provider.
 * C6: every off-machine egress scope ("everything but local-only", unknown
 * custom scopes included); C1/C2: a provider declaring egress with no
 * scopes needs the boolean grant; C4: a non-loopback HTTP provider is egress
 * "regardless of its handshake claim".
 */
export function consentNeeded(ack: Obj | undefined, url: string | undefined): ConsentNeed {
  const provider = isObj(ack?.provider) ? ack.provider : {};
  const flow = isObj(provider.data_flow) ? provider.data_flow : {};
  const scopes = Array.isArray(flow.egress_scopes) ? flow.egress_scopes.filter((s): s is string => typeof s === "string") : [];
  const offMachine = scopes.filter((s) => s !== "local-only");
  const remote = url !== undefined && remoteHost(url) !== undefined;
  if (offMachine.length > 0) return { scopes: offMachine, why: `the provider declares off-machine egress scopes ${offMachine.join(", ")} (C6)` };
  if (flow.egress === true) return { scopes: [EGRESS], why: "the provider declares egress: true (C1, C2)" };
  if (remote) return { scopes: [EGRESS], why: "the provider is not on loopback, so it is egress whatever it declares (C4)" };
  return { scopes: [], why: "" };
}

/** What a run decided about consent, once, from the provider's first handshake_ack: recorded in the transcript as is. */
export type ConsentDecision = ConsentRecord;

export function decideConsent(ack: Obj | undefined, url: string | undefined, grants: readonly string[]): ConsentDecision {
  const need = consentNeeded(ack, url);
  const missing = missingConsent(need, grants);
  return {
    grants: [...grants],
    needed: need.scopes,
    ...(need.why ? { why: need.why } : {}),
    granted: need.scopes.filter((s) => !missing.includes(s)),
    missing,
  };
}

/** Why no query may be sent, in the one wording every output uses; undefined when nothing is missing. */
export function withheldReason(d: ConsentDecision): string | undefined {
  if (d.missing.length === 0) return undefined;
  return `consent is required for ${d.missing.join(", ")}: ${d.why}; no query payload was sent; grant it with ${d.missing.map((m) => `--consent ${m}`).join(" ")} (or --consent all)`;
}

/** The scopes still lacking a grant; `all` grants every scope. */
export function missingConsent(need: ConsentNeed, grants: readonly string[]): string[] {
  if (grants.includes("all")) return [];
  return need.scopes.filter((s) => !grants.includes(s));
}

/** context-reuse §3's receipt: a host-side record of a grant, pinned to the provider as it was at grant time. */
export interface ConsentReceipt {
  provider_id: string;
  scope: string;
  provider_name: string;
  provider_version: string;
  grantor: { policy: string };
  granted_at: string;
}

export function receipts(ack: Obj | undefined, d: ConsentDecision, grantedAt: string): ConsentReceipt[] {
  const provider = isObj(ack?.provider) ? ack.provider : {};
  const name = String(provider.name ?? "");
  return d.granted.map((scope) => ({
    provider_id: name,
    scope,
    provider_name: name,
    provider_version: String(provider.version ?? ""),
    grantor: { policy: `cgp-conform --consent ${d.grants.includes(scope) ? scope : "all"}` },
    granted_at: grantedAt,
  }));
}
