import { defineMode } from "./mode.ts";
import { type Obj } from "../src/protocol/envelope.ts";

/** Breaks G1: "Every Relation MUST carry a non-empty display_name". */
export default defineMode({
  name: "G1-empty-display-name",
  defect: "serves relations with an empty display_name",
  expectFail: ["G1"],
  finding: { code: "G1.no-display-name", params: { display_name: "" } },
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return { ...f, relations: (f.relations as Obj[]).map((r) => ({ ...r, display_name: "" })) };
    },
  }),
});
