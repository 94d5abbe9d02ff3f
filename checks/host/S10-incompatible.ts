import { defineHostCheck } from "../kit/host.ts";
import { lineWords } from "../kit/host-evidence.ts";
import { findings, type Param } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { INCOMPATIBLE_VERSION } from "../../src/protocol/host-scenarios.ts";

/** The refusal: the host's handshake and the provider's incompatible_version answering it, by line. */
type Refused = { handshake: number; error: number };
const refused = (p: Refused): string =>
  `the scenario provider answered the host's handshake (line ${p.handshake}) with error code incompatible_version (line ${p.error})`;
/** What the host sent that provider afterwards: the first's type and line, every one's type and line. */
type Retried = Refused & { first: { type: Param; line: number }; types: Param[]; lines: number[] };

const F = findings({
  retried: {
    says: (p: Retried) =>
      `scenario incompatible-version: ${refused(p)}, yet the host sent ${show(p.first.type)} at line ${p.first.line}${
        p.lines.length > 1 ? ` (${p.types.join(", ")} at ${lineWords(p.lines)})` : ""
      }: a version-family mismatch is permanent and the provider unusable; report the error and let the provider go, with no second handshake and no query`,
    expected: () => "no handshake, query or verify after incompatible_version",
    actual: (p: Retried) => `${p.types.join(", ")} at ${lineWords(p.lines)}`,
  },
  "not-retried": {
    ok: true,
    says: (p: Refused) => `scenario incompatible-version: ${refused(p)}, and the host sent it no further handshake, query or verify`,
  },
});

/** What a host may still send a provider it has given up on: letting it go is no retry. */
const LETTING_GO = new Set(["shutdown"]);

/**
 * @section 10 (no anchor number)
 * Stimulus: scenario incompatible-version: the scenario provider answers
 * every handshake with error code incompatible_version, as a provider of
 * another major family answers one (the error table: "handshake version
 * families do not share a major (H3)"; "do not retry; the provider is
 * unusable").
 * Precondition: the host sent a handshake and the provider answered it so
 * (else the error never reached the host: skip).
 * Findings: any handshake, query or verify (any envelope but shutdown) the
 * host sent that provider after the error fails: a second handshake on the
 * same connection or a new one is the error read as retryable, and a query
 * is a payload sent to a provider that never completed a handshake. Sending
 * nothing more passes; shutdown (or closing its input) lets the provider go
 * and is no retry.
 * Reading: a check of its own rather than a finding of host:H3, whose
 * sentence asks for a named error where the host finds the mismatch itself
 * (scenario wrong-family); here the provider names it, and the sentence
 * held is §10's. Whether the host names the error, and whether it ends, is
 * not judged here (H3 and host:S11-robust judge those where the host meets
 * the mismatch itself): a host may report it where the run cannot see it,
 * so only what it sends the provider is read. A host that would retry only
 * after the run's bound ends is not seen retrying; what the run sees is
 * what it judges.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "S10-incompatible",
  title: "The host never retries a provider that answered incompatible_version",
  level: "MUST",
  requirement: "incompatible_version is the named error H3 requires — a version-family mismatch is permanent, so a host MUST NOT read it as retryable.",
  scenarios: [INCOMPATIBLE_VERSION],
  follows: "host:X2",
  score({ scenario }) {
    const v = scenario(INCOMPATIBLE_VERSION);
    const handshake = v.sent("handshake")[0];
    if (!handshake) return { skip: "scenario incompatible-version: the host sent no handshake, so incompatible_version could not answer one" };
    const error = v.answered("error").find((e) => e.n > handshake.n && e.env.code === "incompatible_version");
    if (!error)
      return {
        skip: `scenario incompatible-version: the scenario provider sent no incompatible_version after the host's handshake (line ${handshake.n}), so there was nothing to retry`,
      };
    const p: Refused = { handshake: handshake.n, error: error.n };
    const after = v.sent().filter((e) => e.n > error.n && !LETTING_GO.has(e.env.type as string));
    if (after.length === 0) return [F.say("not-retried", p, { lines: [handshake.n, error.n] })];
    const first = after[0]!;
    const retried: Retried = {
      ...p,
      first: { type: first.env.type as Param, line: first.n },
      types: after.map((e) => e.env.type as Param),
      lines: after.map((e) => e.n),
    };
    return [F.say("retried", retried, { lines: [error.n, ...retried.lines] })];
  },
});
