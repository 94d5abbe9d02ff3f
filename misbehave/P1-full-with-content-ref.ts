import { NAME } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";

/** Breaks P1: "A full frame MUST carry content and MUST NOT carry content_ref, transform, or canonical_content_hash." */
export default defineMode({
  name: "P1-full-with-content-ref",
  defect: "attaches a content_ref to full frames",
  expectFail: ["P1"],
  finding: { code: "P1.misshaped", params: { extra: ["content_ref"] } },
  apply: (honest) => ({
    frame(doc) {
      return { ...honest.frame.call(this, doc), content_ref: { provider_id: NAME, uri: `contextgraph-ref://${NAME}/${doc.id}` } };
    },
  }),
});
