import { defineMode } from "./mode.ts";

/** Breaks D1: "content_digest, when present, MUST match sha256:<64 lowercase hex>." */
export default defineMode({
  name: "D1-short-digest",
  defect: "shortens content_digest to 16 hex digits",
  expectFail: ["D1"],
  finding: "D1.malformed",
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return { ...f, content_digest: (f.content_digest as string).slice(0, 23) };
    },
  }),
});
