import { defineMode } from "./mode.ts";
import { type Obj } from "../src/protocol/envelope.ts";

/** Breaks F5: "Lowercase is mandated, not conventional". */
export default defineMode({
  name: "F5-uppercase-digest",
  defect: "writes file provenance digests in uppercase hex",
  expectFail: ["F5"],
  // Which way the digest is malformed is in no param (the digest is the one seen): the code is the pin.
  finding: "F5.malformed-digest",
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return { ...f, provenance: (f.provenance as Obj[]).map((l) => ({ ...l, digest: `sha256:${(l.digest as string).slice(7).toUpperCase()}` })) };
    },
  }),
});
