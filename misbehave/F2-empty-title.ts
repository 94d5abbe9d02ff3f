import { defineMode } from "./mode.ts";

/** Breaks F2: "title MUST be non-empty." */
export default defineMode({
  name: "F2-empty-title",
  defect: "serves fact frames with an empty title",
  expectFail: ["F2"],
  finding: { code: "F2.empty", params: { field: "title" } },
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return doc.kind === "fact" ? { ...f, title: "" } : f;
    },
  }),
});
