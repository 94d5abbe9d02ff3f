import { isObj } from "../src/protocol/envelope.ts";
import { defineMode } from "./mode.ts";

/**
 * Falls short of R1's SHOULD for one shape: an object with an id but no type
 * (unambiguously a request, to a provider that declares correlation) gets
 * no reply, where R1 says it SHOULD get bad_request. Every other malformed
 * line is answered. Only the typeless request with an id shows it.
 */
export default defineMode({
  name: "R1-ignore-typeless-request",
  defect: "ignores an object with an id but no type instead of replying bad_request",
  expectFail: [],
  expectWarn: ["R1"],
  finding: { code: "R1.no-bad-request", params: { step: "bad-typeless-request" } },
  apply: (honest) => ({
    onMalformed(line) {
      try {
        const v: unknown = JSON.parse(line);
        if (isObj(v) && v.id !== undefined && v.type === undefined) return [];
      } catch {
        // not JSON: answered as before
      }
      return honest.onMalformed.call(this, line);
    },
  }),
});
