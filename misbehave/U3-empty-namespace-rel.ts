import { defineMode } from "./mode.ts";
import { type Obj } from "../src/protocol/envelope.ts";

/** Breaks U3: a namespaced name has non-empty sides; "acme:" has none after the colon. */
export default defineMode({
  name: "U3-empty-namespace-rel",
  defect: 'labels its relations with rel "acme:" (a namespace with an empty name)',
  expectFail: ["U3"],
  finding: { code: "U3.bad-namespace", params: { what: "rel", value: "acme:" } },
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return { ...f, relations: (f.relations as Obj[]).map((r) => ({ ...r, rel: "acme:" })) };
    },
  }),
});
