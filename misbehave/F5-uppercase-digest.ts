import { defineMode } from "./mode.ts";
import { type Obj } from "../src/protocol/envelope.ts";

/** Breaks F5: "Lowercase is mandated, not conventional". */
export default defineMode({
  name: "F5-uppercase-digest",
  defect: "writes file provenance digests in uppercase hex",
  expectFail: ["F5"],
  finding: /digest "sha256:(?=[0-9A-F]*[A-F])[0-9A-F]{64}" is not sha256:<64 lowercase hex>/,
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return { ...f, provenance: (f.provenance as Obj[]).map((l) => ({ ...l, digest: `sha256:${(l.digest as string).slice(7).toUpperCase()}` })) };
    },
  }),
});
