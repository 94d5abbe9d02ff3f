import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { findings } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { capabilities } from "../../src/protocol/caps.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { SCENARIOS } from "../../src/protocol/host-scenarios.ts";
import { envelopeSchemas } from "../../src/schema/documents.ts";
import type { HostEnvelope, HostView } from "../../src/transcript/host.ts";

/** A frame identity (§6.3): the triple, and nothing of the frame's body. */
const IDENTITY = ["provider_id", "frame_id", "content_digest"];

/** Members a frame defines (the schema's ContextFrame) beside its identity: one of them in a verify is a frame body (or part of one). */
const BODY: readonly string[] = Object.keys((envelopeSchemas.lint.$defs.ContextFrame as { properties: Record<string, unknown> }).properties).filter(
  (k) => !IDENTITY.includes(k),
);

/** One verify the host sent: its line, and how many identities its request.frames lists. */
type Verify = { scenario: string; line: number; identities: number };
/** Which of them (indices into request.frames). */
type Some = Verify & { at: number[] };
const which = (p: Some): string =>
  p.at.length === 1
    ? `request.frames[${p.at[0]}]`
    : `${p.at.length} of its ${p.identities} identities (request.frames[${p.at.slice(0, 4).join("], [")}]${p.at.length > 4 ? ", …" : ""})`;
const carry = (p: Some): string => (p.at.length === 1 ? "carries" : "carry");
const sent = (p: { scenario: string; line: number }): string => `scenario ${p.scenario}, line ${p.line}`;
const identitiesOnly = () => "identities only: provider_id, frame_id, content_digest";

const F = findings({
  "verify-before-ack": {
    says: (p: { scenario: string; line: number; ack: number | null }) =>
      `${sent(p)}: the host sent verify before ${p.ack !== null ? `the handshake_ack (line ${p.ack})` : "any handshake_ack"} could declare capabilities.verify; verify only where an ack declares it`,
    expected: () => "no verify without capabilities.verify",
    actual: (p: { line: number }) => `verify at line ${p.line}`,
  },
  "verify-undeclared": {
    says: (p: { scenario: string; line: number; ack: number }) =>
      `${sent(p)}: the host sent verify to a provider whose handshake_ack (line ${p.ack}) does not declare capabilities.verify; re-query those frames instead`,
    expected: () => "no verify without capabilities.verify",
    actual: (p: { line: number }) => `verify at line ${p.line}`,
  },
  "verify-declared": {
    ok: true,
    says: (p: { scenario: string; line: number; ack: number }) =>
      `${sent(p)}: the host's verify went to a provider declaring capabilities.verify (line ${p.ack})`,
  },
  "no-verify": {
    ok: true,
    says: (p: { scenario: string; ack: number; frames: number[] }) =>
      `scenario ${p.scenario}: the host sent no verify to a provider that does not declare capabilities.verify (handshake_ack line ${p.ack}), though it held the frames served at ${lineWords(p.frames)}`,
  },
  "frame-bodies": {
    apart: ["members"],
    says: (p: Some & { members: string[] }) =>
      `${sent(p)}: the host's verify carries more than frame identities: ${which(p)} also ${carry(p)} ${p.members.map((m) => show(m, 40)).join(", ")}; send provider_id, frame_id and content_digest only, never a frame's body`,
    expected: identitiesOnly,
    actual: (p: { members: string[] }) => `also ${p.members.join(", ")}`,
  },
  "unknown-members": {
    cites: "A verify request MUST carry frame identities only — no frame bodies",
    reading: "a member no frame defines is no part of a frame's body, and U1 has a receiver ignore members it does not recognise, so it shows no body sent",
    level: "NONE",
    apart: ["members"],
    says: (p: Some & { members: string[] }) =>
      `${sent(p)}: the host's verify carries members beside the frame identity that no frame defines: ${which(p)} also ${carry(p)} ${p.members.map((m) => show(m, 40)).join(", ")}; an identity is provider_id, frame_id and content_digest`,
    expected: identitiesOnly,
    actual: (p: { members: string[] }) => `also ${p.members.join(", ")}`,
  },
  digestless: {
    cites: "A host SHOULD include only identities carrying a content_digest",
    level: "SHOULD",
    says: (p: Some) =>
      `${sent(p)}: the host's verify asks about ${which(p)} without a content_digest; a digest-less frame cannot be revalidated: re-query it instead`,
    expected: () => "every identity carries a content_digest",
    actual: (p: Some) => `${count(p.at.length, "identity", "identities")} without one`,
  },
  "identities-only": {
    ok: true,
    says: (p: Verify) =>
      `${sent(p)}: the host's verify carries ${count(p.identities, "frame identity", "frame identities")}, each with a content_digest and nothing more`,
  },
});

/** Part (b): what one verify request carries. */
function identities(v: HostView, { n, env }: HostEnvelope): Evidence[] {
  const request = isObj(env.request) ? env.request : undefined;
  // No frames list: the envelope's shape, host:S2-envelope's to judge.
  if (!Array.isArray(request?.frames)) return [];
  const frames = request.frames as unknown[];
  const bodies: number[] = [];
  const members = new Set<string>();
  const unknown: number[] = [];
  const others = new Set<string>();
  const digestless: number[] = [];
  for (const [i, f] of frames.entries()) {
    if (!isObj(f)) continue;
    const extra = Object.keys(f).filter((k) => !IDENTITY.includes(k));
    const body = extra.filter((k) => BODY.includes(k));
    if (body.length > 0) {
      bodies.push(i);
      for (const k of body) members.add(k);
    }
    // A member no frame defines is no body: an extension a later minor may add (U1), so it only warns.
    const rest = extra.filter((k) => !BODY.includes(k));
    if (rest.length > 0) {
      unknown.push(i);
      for (const k of rest) others.add(k);
    }
    if (f.content_digest === undefined || f.content_digest === null) digestless.push(i);
  }
  const out: Evidence[] = [];
  const verify: Verify = { scenario: v.name, line: n, identities: frames.length };
  if (bodies.length > 0) out.push(F.say("frame-bodies", { ...verify, at: bodies, members: [...members] }, { lines: [n] }));
  if (unknown.length > 0) out.push(F.say("unknown-members", { ...verify, at: unknown, members: [...others] }, { lines: [n] }));
  if (digestless.length > 0) out.push(F.say("digestless", { ...verify, at: digestless }, { lines: [n] }));
  if (out.length === 0) out.push(F.say("identities-only", verify, { lines: [n] }));
  return out;
}

/**
 * @anchor V1
 * Stimulus: every verify the host sent, and every scenario whose provider
 * answered a handshake_ack (lock-step, correlation, foreign-embeddings,
 * representations-subset, verify-declared, egress, egress-scopes, egress-scopes-consented,
 * wrong-family, unknown-members, unknown-vocabulary, error-internal,
 * error-unknown-code, error-no-code, bearer-token, crash-mid-query, stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered,
 * compose-rescored, three-providers, compose-one, compose-one-reordered,
 * compose-one-rescored, budget-breaker-one, reuse-without-verify, reuse, score-ranges,
 * quoted-benign, quoted-hostile, budget-breaker, unverifiable-attestation, reference-unresolvable, incompatible-version, unknown-envelope-type). Only
 * verify-declared and reuse declare capabilities.verify, and each serves one
 * frame without a content_digest (in reuse a host that verifies again, in a
 * second turn, is judged on each verify alike).
 * Two rules. (a) A verify sent where the ack did not declare
 * capabilities.verify (or before any ack) fails. protocol-surface states
 * this without a keyword ("verification is an optimisation a host earns by
 * handshake, never an assumption"); context-reuse §4 (its V3) states it with
 * MUST NOT, and this check holds the MUST. Each scenario that declares no
 * verify, served frames, and got no verify is a pass: the host held frames it
 * could have tried to verify (a scenario that served none shows nothing).
 * (b) Each identity in a verify's request.frames carrying a member a frame
 * defines beside its identity (content, title, kind, …) fails, one finding
 * per verify; a member no frame defines (an extension, U1) warns; an
 * identity without a content_digest (or with null) warns (the SHOULD). Where the host sent no
 * verify, (b) has nothing to judge and says nothing: verify is an
 * optimisation.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "V1",
  title: "The host verifies only where verify is declared, with identities only",
  level: "MUST",
  requirement:
    "A host MUST NOT send context/verify to a provider that does not advertise capabilities.verify (context-reuse §4). " +
    "A verify request MUST carry frame identities only — no frame bodies. A host SHOULD include only identities carrying a content_digest; a digest-less frame cannot be revalidated and is re-queried instead.",
  scenarios: SCENARIOS,
  score(input) {
    const out: Evidence[] = [];
    for (const v of ranViews(input, SCENARIOS)) {
      const ack = v.ack();
      const declared = capabilities(ack?.env).verify === true;
      const verifies = v.sent("verify");
      for (const e of verifies) {
        const early = ack === undefined || e.n < ack.n;
        const lines = [e.n, ...(ack ? [ack.n] : [])];
        if (early) out.push(F.say("verify-before-ack", { scenario: v.name, line: e.n, ack: ack ? ack.n : null }, { lines }));
        else if (!declared) out.push(F.say("verify-undeclared", { scenario: v.name, line: e.n, ack: ack!.n }, { lines }));
        else out.push(F.say("verify-declared", { scenario: v.name, line: e.n, ack: ack!.n }, { lines: [e.n, ack!.n] }));
        out.push(...identities(v, e));
      }
      // Not verifying is an observation only where the host held frames it could have verified.
      const frames = v.answered("frames");
      if (verifies.length === 0 && ack && !declared && frames.length > 0) {
        out.push(F.say("no-verify", { scenario: v.name, ack: ack.n, frames: frames.map((f) => f.n) }, { lines: [ack.n, ...frames.map((f) => f.n)] }));
      }
    }
    return out.length > 0 ? out : { skip: "the host sent no verify, and held frames in no scenario whose provider does not declare verify" };
  },
});
