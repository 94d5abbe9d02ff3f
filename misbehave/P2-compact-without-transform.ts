import { defineMode } from "./mode.ts";

/** Breaks P2: a compact frame "MUST carry all of content, content_digest, canonical_content_hash, transform, and content_ref." */
export default defineMode({
  name: "P2-compact-without-transform",
  defect: "serves compact frames without their transform",
  expectFail: ["P2"],
  finding: { code: "P2.misshaped", params: { missing: ["transform"] } },
  apply: (honest) => ({
    represent(doc, q) {
      const { transform: _dropped, ...f } = honest.represent.call(this, doc, q);
      return f;
    },
  }),
});
