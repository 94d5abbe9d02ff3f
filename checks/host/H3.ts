import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { ended, endingParam, lineWords, type Ending } from "../kit/host-evidence.ts";
import { findings, type Param } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { family } from "../../src/math/version.ts";
import { WRONG_FAMILY } from "../../src/protocol/host-scenarios.ts";
import type { HostEvent } from "../../src/transcript/host.ts";

/** Words a host's error uses for a version-family mismatch. */
const NAMES_MISMATCH = /incompatible|mismatch|unsupported[_ -]?(protocol[_ ]?)?version|(version|family)[^\n]{0,40}\b(not|un)(supported|compatible)/i;

/** The mismatch offered: the ack's version and the host's, each at its line, and the ack's family (null: none). */
type Mismatch = { ack: number; acked?: Param; handshake: number; version?: Param; theirs: string | null };
const mismatch = (p: Mismatch): string =>
  `a handshake_ack of ${show(p.acked, 60)} (line ${p.ack}) answering the host's ${show(p.version, 60)} (line ${p.handshake})`;
/** What the host sent after the ack: the first's type and line, and every one's type and line. */
type Worked = Mismatch & { first: { type?: Param; line: number }; types: Param[]; lines: number[] };
const how = (e: Ending): string => `${ended(e)} (line ${e.n})`;
const named = () => "a named error for the version-family mismatch";

const F = findings({
  "went-on": {
    says: (p: Worked) =>
      `scenario wrong-family: the host went on to send ${show(p.first.type)} at line ${p.first.line} after ${mismatch(p)}, of family ${p.theirs ?? "none"}, and nothing it printed names the mismatch; a mismatch must be reported as a named error: stop at the handshake with one (incompatible_version)`,
    expected: () => "no query or verify after a wrong-family handshake_ack",
    actual: (p: Worked) => `${p.types.join(", ")} at ${lineWords(p.lines)}`,
  },
  "went-on-named": {
    cites: "do not retry; the provider is unusable",
    level: "NONE",
    says: (p: Worked & { stream: string; named: number }) =>
      `scenario wrong-family: the host named the mismatch (its ${p.stream}, line ${p.named}) yet went on to send ${show(p.first.type)} at line ${p.first.line} after ${mismatch(p)}, of family ${p.theirs ?? "none"}; the provider is unusable: stop at the handshake`,
    expected: () => "no query or verify after a wrong-family handshake_ack",
    actual: (p: Worked) => `${p.types.join(", ")} at ${lineWords(p.lines)}`,
  },
  stopped: { ok: true, says: (p: Mismatch) => `scenario wrong-family: after ${mismatch(p)}, the host sent no query or verify` },
  hung: {
    says: (p: Mismatch & { ending: Ending }) =>
      `scenario wrong-family: after ${mismatch(p)}, the host ${ended(p.ending)} (line ${p.ending.n}): a mismatch must be reported as a named error, never left to hang`,
    expected: () => "the host ends, reporting the mismatch",
    actual: (p: { ending: Ending }) => ended(p.ending),
  },
  named: {
    ok: true,
    says: (p: { ending: Ending; stream: string; line: number; text: string }) =>
      `scenario wrong-family: the host ${how(p.ending)}, and its ${p.stream} names the mismatch at line ${p.line}: ${show(p.text, 100)}`,
  },
  "exit-zero-unnamed": {
    cites: "A version-family mismatch MUST be reported as a named error, never left to hang",
    reading:
      "the named error may be surfaced where the run cannot see it (returned to a caller, written to a log file), so an exit with nothing printed that names the mismatch does not show it went unreported",
    level: "NONE",
    says: (p: Mismatch & { ending: Ending; ours: string; printed: number }) =>
      `scenario wrong-family: after ${mismatch(p)}, the host exited with status 0 (line ${p.ending.n}) and nothing it printed names the mismatch: the named error could not be seen; print it (e.g. "incompatible_version: provider speaks ${p.theirs ?? "another family"}, host speaks ${p.ours}") and exit nonzero`,
    expected: named,
    actual: (p: { printed: number }) => `exit status 0; ${p.printed} lines printed, none naming it`,
  },
  "crash-unnamed": {
    cites: "A version-family mismatch MUST be reported as a named error, never left to hang",
    reading:
      "the host may have named the error where the run cannot see it (a log file, an API) before it ended by a signal, so a crash with nothing printed that names the mismatch does not show it went unreported",
    level: "NONE",
    says: (p: Mismatch & { ending: Ending }) =>
      `scenario wrong-family: after ${mismatch(p)}, the host ${how(p.ending)} and nothing it printed names the mismatch: a crash is not a named error`,
    expected: named,
    actual: (p: { ending: Ending }) => ended(p.ending),
  },
  unnamed: {
    cites: "A version-family mismatch MUST be reported as a named error, never left to hang",
    reading:
      "a nonzero exit refuses the provider, and the named error may be surfaced where the run cannot see it (a log file, an API), so nothing printed that names it does not show it went unreported; it warns, as an exit 0 or a crash with nothing named does, and as B2's report not seen does",
    level: "NONE",
    says: (p: Mismatch & { ending: Ending; printed: number }) =>
      `scenario wrong-family: after ${mismatch(p)}, the host ${how(p.ending)}, but nothing it printed names the mismatch; the error may be named where the run cannot see it, and naming it in its output (incompatible_version) would show it`,
    expected: named,
    actual: (p: { ending: Ending; printed: number }) => `${ended(p.ending)}; ${p.printed} lines printed, none naming it`,
  },
});

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
 * with no such line warns too: the refusal shows, its name does not, as B2's
 * drop with no report seen warns (it used to inform); a crash (ended by a
 * signal) with no such line warns: a crash is not a named error.
 */
export default defineHostCheck({
  findings: F.table,
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
    const m: Mismatch = {
      ack: ack.n,
      ...(ack.env.protocol_version === undefined ? {} : { acked: ack.env.protocol_version as Param }),
      handshake: handshake.n,
      ...(handshake.env.protocol_version === undefined ? {} : { version: handshake.env.protocol_version as Param }),
      theirs: theirs ?? null,
    };
    const out: Evidence[] = [];
    const needle = typeof ack.env.protocol_version === "string" ? ack.env.protocol_version.toLowerCase() : undefined;
    const names = (e: HostEvent): boolean =>
      NAMES_MISMATCH.test(e.line ?? "") || (needle !== undefined && needle !== "" && (e.line ?? "").toLowerCase().includes(needle));
    // Only what it printed after the ack can name this mismatch (a host logging its own handshake names nothing).
    const named = v.output().find((e) => e.n > ack.n && names(e));
    const worked = [...v.sent("query"), ...v.sent("verify")].filter((e) => e.n > ack.n).sort((a, b) => a.n - b.n);
    if (worked.length > 0) {
      const first = worked[0]!;
      const w: Worked = {
        ...m,
        first: { ...(first.env.type === undefined ? {} : { type: first.env.type as Param }), line: first.n },
        types: worked.map((e) => e.env.type as Param),
        lines: worked.map((e) => e.n),
      };
      const lines = [ack.n, ...worked.map((e) => e.n)];
      out.push(named ? F.say("went-on-named", { ...w, stream: named.dir, named: named.n }, { lines }) : F.say("went-on", w, { lines }));
    } else {
      out.push(F.say("stopped", m, { lines: [ack.n] }));
    }
    const end = v.ending();
    const ending = endingParam(end);
    if (end.kind === "hang") {
      out.push(F.say("hung", { ...m, ending }, { lines: [ack.n, end.n] }));
      return out;
    }
    if (named) {
      out.push(F.say("named", { ending, stream: named.dir, line: named.n, text: named.line ?? "" }, { lines: [named.n, end.n] }));
      return out;
    }
    const printed = v.output().length;
    if (end.kind === "exit" && end.code === 0) out.push(F.say("exit-zero-unnamed", { ...m, ending, ours, printed }, { lines: [ack.n, end.n] }));
    else if (end.kind === "signal") out.push(F.say("crash-unnamed", { ...m, ending }, { lines: [ack.n, end.n] }));
    else out.push(F.say("unnamed", { ...m, ending, printed }, { lines: [ack.n, end.n] }));
    return out;
  },
});
