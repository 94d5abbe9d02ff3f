import { defineMode } from "./mode.ts";
import { isObj } from "../src/protocol/envelope.ts";

/**
 * Breaks H2: "provider.name and provider.version MUST NOT be empty." The
 * declared name is also the provider id of every frame identity (§6.5.2), so
 * its signed answers name frames by an empty provider id too (F11).
 */
export default defineMode({
  name: "H2-empty-name",
  defect: "declares provider.name as the empty string",
  expectFail: ["H2", "F11"],
  finding: {
    H2: { code: "H2.empty", params: { field: "name" } },
    F11: { code: "F11.schema", params: { pointer: "/result/frame_attestations/0/frame/provider_id", keyword: "minLength" } },
  },
  apply: (honest) => ({
    ack() {
      const ack = honest.ack.call(this);
      return { ...ack, provider: { ...(isObj(ack.provider) ? ack.provider : {}), name: "" } };
    },
  }),
});
