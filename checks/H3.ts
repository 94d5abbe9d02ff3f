import { defineCheck, notSent } from "./kit/check.ts";
import { family, FOREIGN_VERSION, HOST_VERSION } from "../src/math/version.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { FOREIGN_VERSION_PROBE } from "../src/protocol/probes.ts";

const EXPECTED = 'an error envelope with code "incompatible_version"';

/** How the foreign handshake went unanswered. */
type Silence = { kind: "timeout"; waited_ms?: number } | { kind: "exited"; exit_code: Param; signal: Param } | { kind: "none" };

function silenceWords(s: Silence): string {
  switch (s.kind) {
    case "timeout":
      return `no reply within ${s.waited_ms} ms: the mismatch was left to hang`;
    case "exited":
      return `the provider exited (code ${s.exit_code}, signal ${s.signal}) without naming the mismatch`;
    case "none":
      return "no reply";
  }
}

const F = findings({
  "no-reply": {
    says: () => `handshake with ${FOREIGN_VERSION} got no named error`,
    expected: () => EXPECTED,
    actual: (p: { silence: Silence }) => silenceWords(p.silence),
  },
  refused: { ok: true, says: () => `handshake with ${FOREIGN_VERSION} answered with error incompatible_version` },
  acknowledged: {
    says: (p: { version: Param }) =>
      `handshake with ${FOREIGN_VERSION} was acknowledged instead of refused: ${
        family(p.version) === family(FOREIGN_VERSION)
          ? `it claims ${show(p.version)}, which a ${HOST_VERSION} provider cannot speak`
          : `its protocol_version ${show(p.version)} is not in the host's family ${family(FOREIGN_VERSION)}, which H1 forbids`
      }; a provider that cannot match says so by name`,
    expected: () => EXPECTED,
    actual: (p: { version: Param }) => `handshake_ack with protocol_version ${show(p.version)}`,
  },
  "not-named": {
    says: () => `handshake with ${FOREIGN_VERSION} got a reply that does not name the mismatch`,
    expected: () => EXPECTED,
    actual: (p: { type: Param; code?: Param }) => (p.type === "error" ? `error with code ${show(p.code)}` : `envelope of type ${show(p.type)}`),
  },
});

/**
 * @anchor H3
 * Stimulus: handshake with protocol_version contextgraph/99.0 (probe foreign-version).
 */
export default defineCheck({
  findings: F.table,
  id: "H3",
  title: "Provider names a version-family mismatch instead of hanging",
  level: "MUST",
  requirement: "A version-family mismatch MUST be reported as a named error, never left to hang.",
  probes: [FOREIGN_VERSION_PROBE],
  score({ probe }) {
    const p = probe(FOREIGN_VERSION_PROBE);
    const sent = p.sent(FOREIGN_VERSION_PROBE.steps.foreign)[0];
    if (!sent) return notSent(p.name, `handshake with ${FOREIGN_VERSION}`);
    const reply = p.received(FOREIGN_VERSION_PROBE.steps.foreign).find((m) => typeof m.env.type === "string");
    if (!reply) {
      const timeout = p.notes("timeout", FOREIGN_VERSION_PROBE.steps.foreign)[0];
      const exit = p.exit();
      const silence: Silence = timeout
        ? { kind: "timeout", waited_ms: timeout.waitedMs }
        : exit && exit.reason === undefined
          ? { kind: "exited", exit_code: exit.exitCode as Param, signal: exit.signal as Param }
          : { kind: "none" };
      return [F.say("no-reply", { silence }, { lines: [sent.n, ...(timeout ? [timeout.n] : exit ? [exit.n] : [])] })];
    }
    const env = reply.env;
    const lines = [sent.n, reply.n];
    if (env.type === "error" && env.code === "incompatible_version") return [F.say("refused", {}, { lines })];
    if (env.type === "handshake_ack") return [F.say("acknowledged", { version: env.protocol_version as Param }, { lines })];
    return [F.say("not-named", { type: env.type as Param, code: env.code as Param }, { lines })];
  },
});
