import { defineMode } from "./mode.ts";
import { type Obj } from "../src/protocol/envelope.ts";

/** Breaks G2: "target_uri MUST be a non-empty URI" — a relative path is not one. */
export default defineMode({
  name: "G2-relative-target",
  defect: "serves relation targets as repository-relative paths (src/sleep.ts#sleep)",
  expectFail: ["G2"],
  finding: { code: "G2.not-a-uri", params: { part: "scheme" } },
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return { ...f, relations: (doc.relations ?? []).map((r, i) => ({ ...(f.relations as Obj[])[i], target_uri: r.target })) };
    },
  }),
});
