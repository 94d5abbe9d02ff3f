import { defineMode } from "./mode.ts";
import { isObj } from "../src/protocol/envelope.ts";

/** Breaks H2: "provider.name and provider.version MUST NOT be empty." */
export default defineMode({
  name: "H2-empty-version",
  defect: "declares provider.version as the empty string",
  expectFail: ["H2"],
  finding: { code: "H2.empty", params: { field: "version" } },
  apply: (honest) => ({
    ack() {
      const ack = honest.ack.call(this);
      return { ...ack, provider: { ...(isObj(ack.provider) ? ack.provider : {}), version: "" } };
    },
  }),
});
