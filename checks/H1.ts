import { defineCheck } from "./kit/check.ts";
import { everySite } from "./kit/evidence.ts";
import { family, HOST_VERSION, isVersionString } from "../src/math/version.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { HANDSHAKE, HANDSHAKE_STEP } from "../src/protocol/probes.ts";

/** An HTTP status, when the reply came over HTTP. */
const e0 = (status: number | undefined): string => (status === undefined ? "" : ` with HTTP status ${status}`);

/** What came back instead of a handshake_ack. */
type Instead =
  | { kind: "other"; seen: { type: Param; line: number }[] }
  | { kind: "junk"; text?: string; line: number; status: number | null }
  | { kind: "timeout"; waited_ms?: number }
  | { kind: "exited" }
  | { kind: "none" };

function insteadWords(i: Instead): string {
  switch (i.kind) {
    case "other":
      return `received ${i.seen.map((m) => `type ${show(m.type)} (line ${m.line})`).join(", ")} instead`;
    case "junk":
      return `only output that is not a JSON envelope, e.g. ${show(i.text, 60)} (line ${i.line})${e0(i.status ?? undefined)}`;
    case "timeout":
      return `nothing within ${i.waited_ms} ms`;
    case "exited":
      return "the provider exited without replying";
    case "none":
      return "no reply";
  }
}

const OURS = family(HOST_VERSION)!;

const F = findings({
  "never-started": {
    untestable: true,
    says: (p: { exited: boolean }) => `the provider ${p.exited ? "exited" : "ended"} before writing a line, so no handshake was answered`,
  },
  "no-ack": {
    says: () => "no handshake_ack in reply to handshake",
    expected: () => "a handshake_ack envelope",
    actual: (p: { instead: Instead }) => insteadWords(p.instead),
  },
  "bad-version": {
    basis: "the version rule",
    says: () => "handshake_ack protocol_version does not follow the version grammar contextgraph/<major>.<minor>[-draft]",
    expected: () => 'e.g. "contextgraph/1.0"',
    actual: (p: { version: Param }) => show(p.version),
  },
  "wrong-family": {
    says: (p: { version: string; family: string }) =>
      `handshake_ack protocol_version ${p.version} is in family ${p.family}, but the host spoke ${HOST_VERSION} (family ${OURS})`,
    expected: () => `a version in family ${OURS}`,
    actual: (p: { version: string }) => p.version,
  },
  "same-family": { ok: true, says: (p: { version: string }) => `handshake_ack protocol_version ${p.version} shares the host's family ${OURS}` },
});

/**
 * @anchor H1
 * Stimulus: handshake with protocol_version contextgraph/1.0 (probe handshake).
 * A provider alive that never answers it, or answers with anything but a
 * handshake_ack, fails; one that ended before writing a line never started,
 * and H1 is not observed (the run could not be made).
 */
export default defineCheck({
  findings: F.table,
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
      const instead: Instead =
        seen.length > 0
          ? { kind: "other", seen: seen.map((m) => ({ type: m.env.type as Param, line: m.n })) }
          : junk.length > 0
            ? { kind: "junk", text: junk[0]!.line, line: junk[0]!.n, status: junk[0]!.status ?? null }
            : timeout
              ? { kind: "timeout", waited_ms: timeout.waitedMs }
              : p.exit()
                ? { kind: "exited" }
                : { kind: "none" };
      const lines = [...p.sent(HANDSHAKE_STEP).map((m) => m.n), ...seen.map((m) => m.n), ...junk.slice(0, 3).map((e) => e.n), ...(timeout ? [timeout.n] : [])];
      // A provider that ended before writing anything never started: a run that could not be made, not a handshake answered wrong.
      const neverStarted = seen.length === 0 && junk.length === 0 && !timeout && !p.events.some((e) => e.dir === "recv");
      if (neverStarted) {
        const end = p.exit() ?? p.notes("spawn-error")[0] ?? p.notes("connect-error")[0];
        return [F.say("never-started", { exited: p.exit() !== undefined }, { lines: end ? [end.n] : lines })];
      }
      return [F.say("no-ack", { instead }, { lines })];
    }
    const v = ack.env.protocol_version;
    // Outside the version rule the value is no version of the protocol: that fails as the grammar, and the schema's pattern
    // for it, in this ack and in every other session's, is the same cause.
    if (!isVersionString(v)) return [F.say("bad-version", { version: v as Param }, { lines: [ack.n], judges: [everySite("/protocol_version")] })];
    const theirs = family(v)!;
    if (theirs !== OURS) return [F.say("wrong-family", { version: v, family: theirs }, { lines: [ack.n] })];
    return [F.say("same-family", { version: v }, { lines: [ack.n] })];
  },
});
