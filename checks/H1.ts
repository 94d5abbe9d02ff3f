import { defineCheck } from "./kit/check.ts";
import { family, HOST_VERSION, isVersionString } from "../src/math/version.ts";
import { show } from "./kit/show.ts";
import { HANDSHAKE, HANDSHAKE_STEP } from "../src/protocol/probes.ts";

/** An HTTP status, when the reply came over HTTP. */
const e0 = (status: number | undefined): string => (status === undefined ? "" : ` with HTTP status ${status}`);

/**
 * @anchor H1
 * Stimulus: handshake with protocol_version contextgraph/1.0 (probe handshake).
 * A provider alive that never answers it, or answers with anything but a
 * handshake_ack, fails; one that ended before writing a line never started,
 * and H1 is not observed (the run could not be made).
 */
export default defineCheck({
  id: "H1",
  title: "Provider answers handshake with an ack in the host's major family",
  level: "MUST",
  requirement: "A provider MUST reply to handshake with a handshake_ack whose protocol_version is in the same major family as the host's.",
  probes: [HANDSHAKE],
  scoresHandshake: true,
  score({ probe }) {
    const p = probe(HANDSHAKE);
    const ack = p.ack();
    if (!ack) {
      const seen = p.received(HANDSHAKE_STEP);
      const timeout = p.notes("timeout", HANDSHAKE_STEP)[0];
      const junk = p.nonEnvelopes().filter((e) => e.step === HANDSHAKE_STEP);
      const actual =
        seen.length > 0
          ? `received ${seen.map((m) => `type ${show(m.env.type)} (line ${m.n})`).join(", ")} instead`
          : junk.length > 0
            ? `only output that is not a JSON envelope, e.g. ${show(junk[0]!.line, 60)} (line ${junk[0]!.n})${e0(junk[0]!.status)}`
            : timeout
              ? `nothing within ${timeout.waitedMs} ms`
              : p.exit()
                ? "the provider exited without replying"
                : "no reply";
      const lines = [...p.sent(HANDSHAKE_STEP).map((m) => m.n), ...seen.map((m) => m.n), ...junk.slice(0, 3).map((e) => e.n), ...(timeout ? [timeout.n] : [])];
      // A provider that ended before writing anything never started: a run that could not be made, not a handshake answered wrong.
      const neverStarted = seen.length === 0 && junk.length === 0 && !timeout && !p.events.some((e) => e.dir === "recv");
      if (neverStarted) {
        const end = p.exit() ?? p.notes("spawn-error")[0] ?? p.notes("connect-error")[0];
        return [
          {
            ok: false,
            untestable: true,
            message: `the provider ${p.exit() ? "exited" : "ended"} before writing a line, so no handshake was answered`,
            lines: end ? [end.n] : lines,
          },
        ];
      }
      return [{ ok: false, message: "no handshake_ack in reply to handshake", expected: "a handshake_ack envelope", actual, lines }];
    }
    const v = ack.env.protocol_version;
    if (!isVersionString(v)) {
      return [
        {
          ok: false,
          message: "handshake_ack protocol_version does not follow the version grammar contextgraph/<major>.<minor>[-draft]",
          expected: 'e.g. "contextgraph/1.0"',
          actual: show(v),
          lines: [ack.n],
        },
      ];
    }
    const ours = family(HOST_VERSION)!;
    const theirs = family(v)!;
    if (theirs !== ours) {
      return [
        {
          ok: false,
          message: `handshake_ack protocol_version ${v} is in family ${theirs}, but the host spoke ${HOST_VERSION} (family ${ours})`,
          expected: `a version in family ${ours}`,
          actual: v,
          lines: [ack.n],
        },
      ];
    }
    return [{ ok: true, message: `handshake_ack protocol_version ${v} shares the host's family ${ours}`, lines: [ack.n] }];
  },
});
