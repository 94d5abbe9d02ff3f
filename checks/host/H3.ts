import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { lineWords } from "../kit/host-evidence.ts";
import { show } from "../kit/show.ts";
import { family } from "../../src/math/version.ts";
import { WRONG_FAMILY } from "../../src/protocol/host-scenarios.ts";
import { describeEnding, type HostEvent } from "../../src/transcript/host.ts";

/** Words a host's error uses for a version-family mismatch. */
const NAMES_MISMATCH = /incompatible|mismatch|unsupported[_ -]?(protocol[_ ]?)?version|(version|family)[^\n]{0,40}\b(not|un)(supported|compatible)/i;

/**
 * @anchor H3
 * Stimulus: scenario wrong-family: the scenario provider answers the host's
 * handshake with a handshake_ack of the next major family after the host's.
 * Precondition: that ack was sent, and its family differs from the one the
 * host's handshake named (a host version outside the grammar names no family:
 * host:S3-version's finding; skip).
 * Findings: a query or verify the host sent after that ack, with nothing it
 * printed naming the mismatch, fails (the mismatch was worked around, not
 * reported); the same after it did name it warns (it reported the error, as
 * the MUST asks, then used the provider all the same, which the reaction
 * table's "do not retry; the provider is unusable" advises against with no
 * keyword); a host that did not end within the
 * run's bound fails ("never left to hang"). Whether the error was named is
 * read from what the host printed after the ack: a stdout or stderr line that
 * names it (incompatible, mismatch, unsupported version, or the ack's
 * version string) passes.
 * Reading: a nonzero exit is not required by the spec, so it is never a
 * failure alone, and the named error may be surfaced where the run cannot
 * see it (an API, a log file). So exit status 0 with nothing printed that
 * names the mismatch warns (nothing showed a refusal at all); a nonzero exit
 * with no such line is informational; a crash (ended by a signal) with no
 * such line warns: a crash is not a named error.
 */
export default defineHostCheck({
  anchor: "H3",
  title: "The host refuses a wrong-family handshake_ack with a named error",
  level: "MUST",
  requirement: "A version-family mismatch MUST be reported as a named error, never left to hang.",
  scenarios: [WRONG_FAMILY],
  score({ scenario }) {
    const v = scenario(WRONG_FAMILY);
    const handshake = v.sent("handshake")[0];
    if (!handshake) return { skip: "scenario wrong-family: the host sent no handshake, so no handshake_ack could mismatch it" };
    const ours = family(handshake.env.protocol_version);
    if (ours === undefined) {
      return {
        skip: `scenario wrong-family: the host's handshake version ${show(handshake.env.protocol_version, 60)} (line ${handshake.n}) follows no grammar, so it names no family to mismatch (host:S3-version's finding)`,
      };
    }
    const ack = v.ack();
    if (!ack)
      return {
        skip: `scenario wrong-family: the scenario provider sent no handshake_ack after the host's handshake (line ${handshake.n}), so no mismatch was offered`,
      };
    const theirs = family(ack.env.protocol_version);
    const acked = show(ack.env.protocol_version, 60);
    if (theirs === ours)
      return {
        skip: `scenario wrong-family: the scenario provider's handshake_ack ${acked} (line ${ack.n}) shares the host's family ${ours}: no mismatch to refuse`,
      };
    const mismatch = `a handshake_ack of ${acked} (line ${ack.n}) answering the host's ${show(handshake.env.protocol_version, 60)} (line ${handshake.n})`;
    const out: Evidence[] = [];
    const needle = typeof ack.env.protocol_version === "string" ? ack.env.protocol_version.toLowerCase() : undefined;
    const names = (e: HostEvent): boolean =>
      NAMES_MISMATCH.test(e.line ?? "") || (needle !== undefined && needle !== "" && (e.line ?? "").toLowerCase().includes(needle));
    // Only what it printed after the ack can name this mismatch (a host logging its own handshake names nothing).
    const named = v.output().find((e) => e.n > ack.n && names(e));
    const worked = [...v.sent("query"), ...v.sent("verify")].filter((e) => e.n > ack.n).sort((a, b) => a.n - b.n);
    if (worked.length > 0) {
      const first = worked[0]!;
      out.push({
        ok: false,
        ...(named ? { level: "NONE" as const } : {}),
        message: named
          ? `scenario wrong-family: the host named the mismatch (its ${named.dir}, line ${named.n}) yet went on to send ${show(first.env.type)} at line ${first.n} after ${mismatch}, of family ${theirs ?? "none"}; the provider is unusable: stop at the handshake`
          : `scenario wrong-family: the host went on to send ${show(first.env.type)} at line ${first.n} after ${mismatch}, of family ${theirs ?? "none"}, and nothing it printed names the mismatch; a mismatch must be reported as a named error: stop at the handshake with one (incompatible_version)`,
        expected: "no query or verify after a wrong-family handshake_ack",
        actual: `${worked.map((e) => e.env.type).join(", ")} at ${lineWords(worked.map((e) => e.n))}`,
        lines: [ack.n, ...worked.map((e) => e.n)],
      });
    } else {
      out.push({ ok: true, message: `scenario wrong-family: after ${mismatch}, the host sent no query or verify`, lines: [ack.n] });
    }
    const end = v.ending();
    if (end.kind === "hang") {
      out.push({
        ok: false,
        message: `scenario wrong-family: after ${mismatch}, the host ${describeEnding(end)} (line ${end.n}): a mismatch must be reported as a named error, never left to hang`,
        expected: "the host ends, reporting the mismatch",
        actual: describeEnding(end),
        lines: [ack.n, end.n],
      });
      return out;
    }
    const how = `${describeEnding(end)} (line ${end.n})`;
    if (named) {
      out.push({
        ok: true,
        message: `scenario wrong-family: the host ${how}, and its ${named.dir} names the mismatch at line ${named.n}: ${show(named.line, 100)}`,
        lines: [named.n, end.n],
      });
      return out;
    }
    if (end.kind === "exit" && end.code === 0) {
      out.push({
        ok: false,
        level: "NONE",
        message: `scenario wrong-family: after ${mismatch}, the host exited with status 0 (line ${end.n}) and nothing it printed names the mismatch: the named error could not be seen; print it (e.g. "incompatible_version: provider speaks ${theirs ?? "another family"}, host speaks ${ours}") and exit nonzero`,
        expected: "a named error for the version-family mismatch",
        actual: `exit status 0; ${v.output().length} lines printed, none naming it`,
        lines: [ack.n, end.n],
      });
    } else if (end.kind === "signal") {
      out.push({
        ok: false,
        level: "NONE",
        message: `scenario wrong-family: after ${mismatch}, the host ${how} and nothing it printed names the mismatch: a crash is not a named error`,
        expected: "a named error for the version-family mismatch",
        actual: describeEnding(end),
        lines: [ack.n, end.n],
      });
    } else {
      out.push({
        ok: false,
        level: "MAY",
        message: `scenario wrong-family: after ${mismatch}, the host ${how}, but nothing it printed names the mismatch; the error may be named where the run cannot see it, and naming it in its output (incompatible_version) would show it`,
        expected: "a named error for the version-family mismatch",
        actual: `${describeEnding(end)}; ${v.output().length} lines printed, none naming it`,
        lines: [ack.n, end.n],
      });
    }
    return out;
  },
});
