import { BASE_KINDS } from "../src/protocol/caps.ts";
import { defineMode } from "./mode.ts";

/**
 * Breaks Q1: drops kinds it does not recognise from the filter, so a query
 * for only an unknown kind becomes a query for any kind. Only a query naming
 * a kind outside the base vocabulary shows it.
 */
export default defineMode({
  name: "Q1-unknown-kind-means-any",
  defect: 'drops unrecognised kinds from the filter, so kinds ["acme:diagram"] is served as any kind',
  expectFail: ["Q1"],
  finding: { code: "Q1.other-kind", params: { kinds: ["acme:diagram"], narrowing: "kind" } },
  apply: (honest) => ({
    eligible(q) {
      return honest.eligible.call(this, { ...q, kinds: q.kinds.filter((k) => (BASE_KINDS as readonly string[]).includes(k)) });
    },
  }),
});
