import { defineCheck, notSent } from "./kit/check.ts";
import { family, FOREIGN_VERSION, HOST_VERSION } from "../src/math/version.ts";
import { show } from "./kit/show.ts";
import { FOREIGN_VERSION_PROBE } from "../src/protocol/probes.ts";

/**
 * @anchor H3
 * Stimulus: handshake with protocol_version contextgraph/99.0 (probe foreign-version).
 */
export default defineCheck({
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
    const expected = 'an error envelope with code "incompatible_version"';
    if (!reply) {
      const timeout = p.notes("timeout", FOREIGN_VERSION_PROBE.steps.foreign)[0];
      const exit = p.exit();
      const actual = timeout
        ? `no reply within ${timeout.waitedMs} ms: the mismatch was left to hang`
        : exit && exit.reason === undefined
          ? `the provider exited (code ${exit.exitCode}, signal ${exit.signal}) without naming the mismatch`
          : "no reply";
      return [
        {
          ok: false,
          message: `handshake with ${FOREIGN_VERSION} got no named error`,
          expected,
          actual,
          lines: [sent.n, ...(timeout ? [timeout.n] : exit ? [exit.n] : [])],
        },
      ];
    }
    const env = reply.env;
    if (env.type === "error" && env.code === "incompatible_version") {
      return [{ ok: true, message: `handshake with ${FOREIGN_VERSION} answered with error incompatible_version`, lines: [sent.n, reply.n] }];
    }
    if (env.type === "handshake_ack") {
      const v = env.protocol_version;
      const why =
        family(v) === family(FOREIGN_VERSION)
          ? `it claims ${show(v)}, which a ${HOST_VERSION} provider cannot speak`
          : `its protocol_version ${show(v)} is not in the host's family ${family(FOREIGN_VERSION)}, which H1 forbids`;
      return [
        {
          ok: false,
          message: `handshake with ${FOREIGN_VERSION} was acknowledged instead of refused: ${why}; a provider that cannot match says so by name`,
          expected,
          actual: `handshake_ack with protocol_version ${show(v)}`,
          lines: [sent.n, reply.n],
        },
      ];
    }
    return [
      {
        ok: false,
        message: `handshake with ${FOREIGN_VERSION} got a reply that does not name the mismatch`,
        expected,
        actual: env.type === "error" ? `error with code ${show(env.code)}` : `envelope of type ${show(env.type)}`,
        lines: [sent.n, reply.n],
      },
    ];
  },
});
