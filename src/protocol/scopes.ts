/** §4.1's four normative base classes of egress scope; "everything but local-only is off-machine". */
export const BASE_SCOPES = ["local-only", "org-tenant", "third-party-index", "third-party-model"];

/** The grant that unlocks the legacy boolean gate: a provider declaring egress with no scopes. */
export const EGRESS = "egress";
