/**
 * Defect: an envelope of a type outside 1.0's vocabulary ends the exchange with its provider (a bad_response error,
 * exit 1), as a host whose envelope decoder is a closed enum does: a provider on a later minor is dropped for a
 * notification it may send.
 * Breaks protocol-surface §2: "a receiver MUST NOT reject an envelope solely because its type is one it does not
 * implement — it […] ignores an unrecognised notification."
 */
import { ENVELOPE_KINDS } from "../../src/schema/kinds.ts";
import { defineHostMode } from "./mode.ts";

const KNOWN: readonly string[] = ENVELOPE_KINDS;

export default defineHostMode({
  name: "S2-drop-on-unknown-type",
  defect: "drops its provider on an envelope of a type it does not implement",
  expectFail: ["host:S2-unknown-type"],
  finding: { code: "host:S2-unknown-type.ending-differs" },
  only: "stdio",
  apply: () => ({
    unexpected(env) {
      return KNOWN.includes(env.type as string) ? undefined : `unknown envelope type ${JSON.stringify(env.type)}`;
    },
  }),
});
