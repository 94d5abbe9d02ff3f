/**
 * Defect: asks for compact then full whatever the provider advertised.
 * Breaks P5: "A host MUST NOT populate query.representation_preferences with a representation the provider did not
 * advertise in capabilities.representations".
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "P5-unadvertised-representation",
  defect: 'always sends representation_preferences ["compact", "full"], regardless of what capabilities.representations advertised',
  expectFail: ["host:P5"],
  finding: { code: "host:P5.unadvertised", params: { foreign: ["compact"] } },
  apply: () => ({
    preferences: () => ["compact", "full"],
  }),
});
