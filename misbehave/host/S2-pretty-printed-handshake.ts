/**
 * Defect: writes its handshake pretty-printed, over several lines.
 * Breaks §2 (S2-framing): "stdio: exactly one envelope per line, newline-delimited (NDJSON). An envelope MUST NOT
 * contain a literal newline." (Over HTTP a body may hold newlines: the defect exists on stdio only.)
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "S2-pretty-printed-handshake",
  defect: "writes its handshake pretty-printed, one member per line",
  expectFail: ["host:S2-framing"],
  finding: "host:S2-framing.fragment",
  only: "stdio",
  apply: (honest) => ({
    serialize(env) {
      return env.type === "handshake" ? JSON.stringify(env, null, 2) : honest.serialize.call(this, env);
    },
  }),
});
