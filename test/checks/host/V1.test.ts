import V1 from "../../../checks/host/V1.ts";
import { ackWith, error, frames, handshake, hostTx, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

const DECLARED = ackWith({ verify: true });
const DIGEST = `sha256:${"a".repeat(64)}`;
const identity = (extra: Record<string, unknown> = {}) => ({
  provider_id: "cgp-conform-scenario",
  frame_id: "fixture:retry-doc",
  content_digest: DIGEST,
  ...extra,
});
const verify = (...ids: object[]) => ({ type: "verify", request: { frames: ids } });
const verified = { type: "verified", response: { verdicts: [] } };

runHostCases(V1, [
  {
    name: "no verify where none is declared",
    build: () => hostTx().scenario("lock-step").honest().scenario("egress").honest(),
    status: "pass",
    says: [
      /scenario lock-step: the host sent no verify to a provider that does not declare capabilities.verify \(handshake_ack line 3\), though it held the frames served at line 5/,
      /scenario egress:/,
    ],
  },
  {
    name: "no verify, and no frames held anywhere: nothing observed, a skip",
    build: () => hostTx().scenario("lock-step").handshake().send({ type: "query", query: {} }).answer(error("internal")).end({ code: 1 }),
    status: "skip",
    says: [/the host sent no verify, and held frames in no scenario/],
  },
  {
    name: "a member no frame defines beside the identity: a warning, not a body",
    build: () =>
      hostTx()
        .scenario("verify-declared")
        .handshake(DECLARED)
        .send(verify({ ...identity(), cgp_future: 1 }))
        .end(),
    status: "warn",
    codes: ["host:V1.unknown-members"],
    strict: "warn",
    says: [/members beside the frame identity that no frame defines: request.frames\[0\] also carries "cgp_future"/],
  },
  {
    name: "a verify to a provider that does not declare verify",
    build: () => hostTx().scenario("lock-step").honest().scenario("egress").handshake().send(verify(identity())).answer(error("bad_request")).end(),
    status: "fail",
    codes: ["host:V1.verify-undeclared"],
    says: [/scenario egress, line 10: the host sent verify to a provider whose handshake_ack \(line 9\) does not declare capabilities.verify/],
    lines: [10],
  },
  {
    name: "a proper verify where verify is declared",
    build: () => hostTx().scenario("verify-declared").honest(DECLARED).send(verify(identity())).answer(verified).end(),
    status: "pass",
    says: [
      /line 8: the host's verify went to a provider declaring capabilities.verify \(line 3\)/,
      /line 8: the host's verify carries 1 frame identity, each with a content_digest and nothing more/,
    ],
  },
  {
    name: "identities with only the three members pass, in any number",
    build: () =>
      hostTx()
        .scenario("verify-declared")
        .handshake(DECLARED)
        .send(verify(identity(), identity({ frame_id: "fixture:other" })))
        .answer(verified)
        .end(),
    status: "pass",
    says: [/carries 2 frame identities/],
  },
  {
    name: "a verify carrying frame bodies",
    build: () =>
      hostTx()
        .scenario("verify-declared")
        .handshake(DECLARED)
        .send(verify(identity({ content: "Retry with backoff.", title: "Retry" }), identity({ kind: "doc" })))
        .answer(verified)
        .end(),
    status: "fail",
    codes: ["host:V1.frame-bodies"],
    says: [
      /scenario verify-declared, line 4: the host's verify carries more than frame identities: 2 of its 2 identities .* also carry "content", "title", "kind"/,
    ],
    lines: [4],
  },
  {
    name: "a digest-less identity: the SHOULD",
    build: () =>
      hostTx()
        .scenario("verify-declared")
        .handshake(DECLARED)
        .send(verify(identity(), identity({ frame_id: "fixture:retry-fn", content_digest: undefined })))
        .answer(verified)
        .end(),
    status: "warn",
    codes: ["host:V1.digestless"],
    strict: "fail",
    says: [/line 4: the host's verify asks about request.frames\[1\] without a content_digest; a digest-less frame cannot be revalidated/],
    lines: [4],
  },
  {
    name: "a verify before the ack",
    build: () => hostTx().scenario("verify-declared").send(handshake()).send(verify(identity())).ack(DECLARED).end(),
    status: "fail",
    codes: ["host:V1.verify-before-ack"],
    says: [/line 3: the host sent verify before the handshake_ack \(line 4\) could declare capabilities.verify/],
    lines: [3],
  },
  {
    name: "verify declared and not used: nothing to judge there, the other scenarios still speak",
    build: () => hostTx().scenario("verify-declared").honest(DECLARED, frames()).scenario("lock-step").honest(),
    status: "pass",
    never: [/scenario verify-declared/],
  },
  {
    name: "no ack and no verify anywhere",
    build: () => hostTx().scenario("wrong-family").send(handshake()).answer(error("incompatible_version")).send(SHUTDOWN).end({ code: 1 }),
    status: "skip",
  },
]);
