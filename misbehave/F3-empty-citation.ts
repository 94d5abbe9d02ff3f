import { defineMode } from "./mode.ts";

/** Breaks F3: "citation_label MUST be non-empty." */
export default defineMode({
  name: "F3-empty-citation",
  defect: "serves snippet frames with an empty citation_label",
  expectFail: ["F3"],
  finding: { code: "F3.empty", params: { field: "citation_label" } },
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return doc.kind === "snippet" ? { ...f, citation_label: "" } : f;
    },
  }),
});
