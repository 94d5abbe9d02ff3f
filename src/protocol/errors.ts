/** §10's error code vocabulary. */
export const ERROR_CODES = [
  "bad_request",
  "unsupported_kind",
  "unsupported_representation",
  "incompatible_version",
  "budget_unsatisfiable",
  "unavailable",
  "shutting_down",
  "internal",
];
