import { defineCheck } from "./kit/check.ts";
import { isObj } from "../src/protocol/envelope.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { HANDSHAKE } from "../src/protocol/probes.ts";

const F = findings({
  contradiction: {
    says: (p: { off_machine: Param[]; scopes: Param }) =>
      `data_flow declares egress: false beside off-machine scope${p.off_machine.length > 1 ? "s" : ""} ${p.off_machine.map((s) => show(s)).join(", ")}`,
    expected: () => "egress: true, or only local-only scopes",
    actual: (p: { scopes: Param }) => `egress: false, egress_scopes ${show(p.scopes)}`,
  },
  consistent: { ok: true, says: (p: { egress: Param; scopes: Param }) => `egress ${show(p.egress)} with egress_scopes ${show(p.scopes)} is consistent` },
});

/**
 * @anchor C5
 * Stimulus: the handshake_ack's data_flow (probe handshake). "everything but
 * local-only is off-machine", and "an unrecognised custom scope is treated as
 * off-machine".
 */
export default defineCheck({
  findings: F.table,
  id: "C5",
  title: "Egress scopes agree with the egress flag",
  level: "MUST",
  requirement:
    "A provider MUST NOT declare an off-machine egress_scope alongside egress: false — a local posture that names a destination content leaves is a contradiction a host rejects at the handshake.",
  probes: [HANDSHAKE],
  score({ probe }) {
    const ack = probe(HANDSHAKE).ack()!;
    const provider = isObj(ack.env.provider) ? ack.env.provider : {};
    const flow = isObj(provider.data_flow) ? provider.data_flow : undefined;
    const scopes = flow?.egress_scopes;
    if (!Array.isArray(scopes) || scopes.length === 0) return { skip: "the provider declares no egress_scopes: only the boolean egress applies" };
    const offMachine = scopes.filter((s) => s !== "local-only");
    if (flow!.egress === false && offMachine.length > 0) {
      return [F.say("contradiction", { off_machine: offMachine as Param[], scopes: scopes as Param }, { lines: [ack.n] })];
    }
    return [F.say("consistent", { egress: flow!.egress as Param, scopes: scopes as Param }, { lines: [ack.n] })];
  },
});
