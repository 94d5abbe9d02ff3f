/** §4.1's four normative base classes of egress scope; "everything but local-only is off-machine". */
export const BASE_SCOPES = ["local-only", "org-tenant", "third-party-index", "third-party-model"];

/** The grant that unlocks the legacy boolean gate: a provider declaring egress with no scopes. */
export const EGRESS = "egress";

/**
 * U3's vendor:name, "a : with non-empty sides" (§4.1): some colon with text
 * on both sides. A name with more colons (acme:eu:west) is one: the sentence
 * does not say which colon splits vendor from name, so any does.
 */
export const NAMESPACED = /^.+:.+$/;
