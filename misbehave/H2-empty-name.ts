import { isObj } from "../src/transcript/view.ts";
import { defineMode } from "./mode.ts";

/** Breaks H2: "provider.name and provider.version MUST NOT be empty." */
export default defineMode({
  name: "H2-empty-name",
  defect: "declares provider.name as the empty string",
  expectFail: ["H2"],
  apply: (honest) => ({
    ack() {
      const ack = honest.ack.call(this);
      return { ...ack, provider: { ...(isObj(ack.provider) ? ack.provider : {}), name: "" } };
    },
  }),
});
