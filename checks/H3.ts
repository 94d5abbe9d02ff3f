import { defineCheck, notSent, type Evidence } from "./kit/check.ts";
import { family, FOREIGN_VERSION, HOST_VERSION, PREFIX_FOREIGN_VERSION } from "../src/math/version.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { FOREIGN_PREFIX_PROBE, FOREIGN_VERSION_PROBE } from "../src/protocol/probes.ts";
import type { ProbeView } from "../src/transcript/view.ts";

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

/** The version a foreign handshake carried: each is a stimulus of its own. */
type Sent = { sent: Param };

const F = findings({
  "no-reply": {
    apart: ["sent"],
    says: (p: Sent & { silence: Silence }) => `handshake with ${show(p.sent)} got no named error`,
    expected: () => EXPECTED,
    actual: (p: { silence: Silence }) => silenceWords(p.silence),
  },
  refused: { ok: true, apart: ["sent"], says: (p: Sent) => `handshake with ${show(p.sent)} answered with error incompatible_version` },
  acknowledged: {
    apart: ["sent"],
    says: (p: Sent & { version: Param }) =>
      `handshake with ${show(p.sent)} was acknowledged instead of refused: ${
        family(p.version) === family(String(p.sent))
          ? `it claims ${show(p.version)}, which a ${HOST_VERSION} provider cannot speak`
          : `it answers in ${show(p.version)}, not in the family ${family(String(p.sent))} the handshake named`
      }${family(String(p.sent)) !== family(HOST_VERSION) && String(p.sent).startsWith(family(HOST_VERSION)!) ? ` (the family is the text up to the first ".": ${family(String(p.sent))} is not ${family(HOST_VERSION)})` : ""}; a provider that cannot match says so by name`,
    expected: () => EXPECTED,
    actual: (p: { version: Param }) => `handshake_ack with protocol_version ${show(p.version)}`,
  },
  "not-named": {
    apart: ["sent"],
    says: (p: Sent & { type: Param; code?: Param }) => `handshake with ${show(p.sent)} got a reply that does not name the mismatch`,
    expected: () => EXPECTED,
    actual: (p: { type: Param; code?: Param }) => (p.type === "error" ? `error with code ${show(p.code)}` : `envelope of type ${show(p.type)}`),
  },
});

/** How one foreign handshake was answered. */
function judged(p: ProbeView, step: string, version: string): Evidence[] | undefined {
  const sent = p.sent(step)[0];
  if (!sent) return undefined;
  const at: Sent = { sent: version };
  const reply = p.paired ? p.answerTo(sent) : p.received(step).find((m) => typeof m.env.type === "string");
  if (!reply) {
    const timeout = p.notes("timeout", step)[0];
    const exit = p.exit();
    const silence: Silence = timeout
      ? { kind: "timeout", waited_ms: timeout.waitedMs }
      : exit && exit.reason === undefined
        ? { kind: "exited", exit_code: exit.exitCode as Param, signal: exit.signal as Param }
        : { kind: "none" };
    return [F.say("no-reply", { ...at, silence }, { lines: [sent.n, ...(timeout ? [timeout.n] : exit ? [exit.n] : [])] })];
  }
  const env = reply.env;
  const lines = [sent.n, reply.n];
  if (env.type === "error" && env.code === "incompatible_version") return [F.say("refused", at, { lines })];
  if (env.type === "handshake_ack") return [F.say("acknowledged", { ...at, version: env.protocol_version as Param }, { lines })];
  return [F.say("not-named", { ...at, type: env.type as Param, code: env.code as Param }, { lines })];
}

/**
 * @anchor H3
 * Stimulus: a handshake with protocol_version contextgraph/99.0 (probe
 * foreign-version), and one with contextgraph/10.0 (probe foreign-prefix), a
 * family whose name begins with the host's: "The major family is the
 * substring up to (not including) the first .", so contextgraph/10 is not
 * contextgraph/1, though a string prefix test says it is. Each in a session of
 * its own: a provider may end one after refusing it.
 */
export default defineCheck({
  findings: F.table,
  id: "H3",
  title: "Provider names a version-family mismatch instead of hanging",
  level: "MUST",
  requirement: "A version-family mismatch MUST be reported as a named error, never left to hang.",
  probes: [FOREIGN_VERSION_PROBE, FOREIGN_PREFIX_PROBE],
  score({ probe }) {
    const first = judged(probe(FOREIGN_VERSION_PROBE), FOREIGN_VERSION_PROBE.steps.foreign, FOREIGN_VERSION);
    if (!first) return notSent(FOREIGN_VERSION_PROBE.name, `handshake with ${FOREIGN_VERSION}`);
    // A transcript from before the second stimulus has only the first.
    const prefix = judged(probe(FOREIGN_PREFIX_PROBE), FOREIGN_PREFIX_PROBE.steps.foreign, PREFIX_FOREIGN_VERSION) ?? [];
    return [...first, ...prefix];
  },
});
