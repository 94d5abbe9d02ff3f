import { defineMode } from "./mode.ts";

/** Breaks V4: a replacement_digest is a digest: sha256:<64 lowercase hex>. */
export default defineMode({
  name: "V4-uppercase-replacement",
  defect: "writes replacement_digest in uppercase hex",
  expectFail: ["V4"],
  // Which way the digest is malformed is in no param (the digest is the one seen): the code is the pin.
  finding: "V4.malformed-replacement",
  apply: (honest) => ({
    verdict(identity) {
      const v = honest.verdict.call(this, identity);
      return typeof v.replacement_digest === "string" ? { ...v, replacement_digest: `sha256:${v.replacement_digest.slice(7).toUpperCase()}` } : v;
    },
  }),
});
