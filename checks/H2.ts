import { defineCheck, type Evidence } from "./kit/check.ts";
import { isObj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { HANDSHAKE } from "../src/protocol/probes.ts";

/**
 * @anchor H2
 * Stimulus: the handshake_ack recorded by probe handshake.
 */
export default defineCheck({
  id: "H2",
  title: "Provider name and version are non-empty",
  level: "MUST",
  requirement: "provider.name and provider.version MUST NOT be empty.",
  probes: [HANDSHAKE],
  score({ probe }) {
    const ack = probe(HANDSHAKE).ack()!;
    const provider = isObj(ack.env.provider) ? ack.env.provider : undefined;
    return (["name", "version"] as const).map((field): Evidence => {
      const v = provider?.[field];
      const ok = typeof v === "string" && v.length > 0;
      return ok
        ? { ok, message: `provider.${field} is ${show(v)}`, lines: [ack.n] }
        : { ok, message: `provider.${field} is empty or missing`, expected: "a non-empty string", actual: show(v), lines: [ack.n] };
    });
  },
});
