import { isObj, type Obj } from "../transcript/view.ts";
import { isLoopbackHost } from "../target/loopback.ts";

/** §4.1's four normative base classes; "everything but local-only is off-machine". */
export const BASE_SCOPES = ["local-only", "org-tenant", "third-party-index", "third-party-model"];

/** The grant that unlocks the legacy boolean gate: a provider declaring egress with no scopes. */
export const EGRESS = "egress";

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
  const remote = url !== undefined && !isLoopbackHost(new URL(url).hostname);
  if (offMachine.length > 0) return { scopes: offMachine, why: `the provider declares off-machine egress scopes ${offMachine.join(", ")} (C6)` };
  if (flow.egress === true) return { scopes: [EGRESS], why: "the provider declares egress: true (C1, C2)" };
  if (remote) return { scopes: [EGRESS], why: "the provider is not on loopback, so it is egress whatever it declares (C4)" };
  return { scopes: [], why: "" };
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

export function receipts(ack: Obj | undefined, need: ConsentNeed, grants: readonly string[], grantedAt: string): ConsentReceipt[] {
  const provider = isObj(ack?.provider) ? ack.provider : {};
  const name = String(provider.name ?? "");
  return need.scopes
    .filter((s) => grants.includes("all") || grants.includes(s))
    .map((scope) => ({
      provider_id: name,
      scope,
      provider_name: name,
      provider_version: String(provider.version ?? ""),
      grantor: { policy: `cgp-conform --consent ${grants.includes(scope) ? scope : "all"}` },
      granted_at: grantedAt,
    }));
}
