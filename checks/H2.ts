import { defineCheck, type Evidence } from "./kit/check.ts";
import { isObj } from "../src/protocol/envelope.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { HANDSHAKE } from "../src/protocol/probes.ts";

/** A member of provider, and what it was (absent when the ack left it out). */
type Member = { field: "name" | "version"; value?: Param };

const F = findings({
  present: { ok: true, apart: ["field"], says: (p: Member) => `provider.${p.field} is ${show(p.value)}` },
  empty: {
    apart: ["field"],
    says: (p: Member) => `provider.${p.field} is empty or missing`,
    expected: () => "a non-empty string",
    actual: (p: Member) => show(p.value),
  },
});

/**
 * @anchor H2
 * Stimulus: the handshake_ack recorded by probe handshake.
 */
export default defineCheck({
  findings: F.table,
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
      return F.say(ok ? "present" : "empty", { field, value: v as Param }, { lines: [ack.n] });
    });
  },
});
