import { defineCheck } from "../src/check.ts";
import { family, HOST_VERSION, isVersionString } from "../src/math/version.ts";
import { show } from "../src/transcript/view.ts";

/**
 * @anchor H1
 * Stimulus: handshake with protocol_version contextgraph/1.0 (probe handshake).
 */
export default defineCheck({
  id: "H1",
  title: "Provider answers handshake with an ack in the host's major family",
  level: "MUST",
  requirement:
    "A provider MUST reply to handshake with a handshake_ack whose protocol_version is in the same major family as the host's.",
  probes: ["handshake"],
  scoresHandshake: true,
  score({ probe }) {
    const p = probe("handshake");
    const ack = p.ack();
    if (!ack) {
      const seen = p.received("handshake");
      const timeout = p.notes("timeout", "handshake")[0];
      const actual = seen.length > 0
        ? `received ${seen.map((m) => `type ${show(m.env.type)} (line ${m.n})`).join(", ")} instead`
        : timeout ? `nothing within ${timeout.waitedMs} ms` : p.exit() ? "the provider exited without replying" : "no reply";
      const lines = [...p.sent("handshake").map((m) => m.n), ...seen.map((m) => m.n), ...(timeout ? [timeout.n] : [])];
      return [{ ok: false, message: "no handshake_ack in reply to handshake", expected: "a handshake_ack envelope", actual, lines }];
    }
    const v = ack.env.protocol_version;
    if (!isVersionString(v)) {
      return [{
        ok: false,
        message: "handshake_ack protocol_version does not follow the version grammar contextgraph/<major>.<minor>[-draft]",
        expected: "e.g. \"contextgraph/1.0\"",
        actual: show(v),
        lines: [ack.n],
      }];
    }
    const ours = family(HOST_VERSION)!;
    const theirs = family(v)!;
    if (theirs !== ours) {
      return [{
        ok: false,
        message: `handshake_ack protocol_version ${v} is in family ${theirs}, but the host spoke ${HOST_VERSION} (family ${ours})`,
        expected: `a version in family ${ours}`,
        actual: v,
        lines: [ack.n],
      }];
    }
    return [{ ok: true, message: `handshake_ack protocol_version ${v} shares the host's family ${ours}`, lines: [ack.n] }];
  },
});
