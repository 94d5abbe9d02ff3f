import { defineMode } from "./mode.ts";

/** Breaks V4: a replacement_digest is a digest: sha256:<64 lowercase hex>. */
export default defineMode({
  name: "V4-uppercase-replacement",
  defect: "writes replacement_digest in uppercase hex",
  expectFail: ["V4"],
  finding: /has replacement_digest "sha256:(?=[0-9A-F]*[A-F])[0-9A-F]{64}"/,
  apply: (honest) => ({
    verdict(identity) {
      const v = honest.verdict.call(this, identity);
      return typeof v.replacement_digest === "string" ? { ...v, replacement_digest: `sha256:${v.replacement_digest.slice(7).toUpperCase()}` } : v;
    },
  }),
});
