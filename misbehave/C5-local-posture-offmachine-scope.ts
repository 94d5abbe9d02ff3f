import { defineMode } from "./mode.ts";
import { isObj } from "../src/protocol/envelope.ts";

/** Breaks C5: a local posture (egress: false) naming a destination content leaves to. */
export default defineMode({
  name: "C5-local-posture-offmachine-scope",
  defect: 'declares egress: false with egress_scopes ["third-party-model"]',
  expectFail: ["C5"],
  finding: { code: "C5.contradiction", params: { off_machine: ["third-party-model"] } },
  apply: (honest) => ({
    ack() {
      const ack = honest.ack.call(this);
      const provider = isObj(ack.provider) ? ack.provider : {};
      return { ...ack, provider: { ...provider, data_flow: { reads: true, writes: false, egress: false, egress_scopes: ["third-party-model"] } } };
    },
  }),
});
