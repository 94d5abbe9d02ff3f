import { defineMode } from "./mode.ts";
import { type Obj } from "../src/protocol/envelope.ts";

/**
 * Breaks F5's digested bytes: "the exact UTF-8 source bytes ... with no
 * normalization (no line-ending translation ...)", the definition that makes
 * F5's MUST checkable and binds with it: the reference's files hold still
 * under the run, so the check fails.
 */
export default defineMode({
  name: "F5-normalized-newlines",
  defect: "digests file provenance after translating CRLF to LF",
  expectFail: ["F5"],
  finding: { code: "F5.digest-of-other-bytes", params: { at: { range: "L2-3" }, bytes: 88, normalized: "crlf-to-lf" } },
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      const normalized = this.digest((f.content as string).replace(/\r\n/g, "\n"));
      return { ...f, provenance: (f.provenance as Obj[]).map((l) => ({ ...l, digest: normalized })) };
    },
  }),
});
