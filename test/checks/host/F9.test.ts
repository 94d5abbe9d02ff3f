import F9 from "../../../checks/host/F9.ts";
import type { Held } from "../../../src/reference/host.ts";
import type { Obj } from "../../../src/protocol/envelope.ts";
import { frames, hostTx, query, runHostCases, type HostTranscriptBuilder } from "../../helpers/host-transcript.ts";
import { blockOf, end, Q, serveAll, served } from "../../helpers/adversarial.ts";

const id = (h: Held): string => String(h.frame.id);

/** unverifiable-attestation, the block made of the frames `keep` keeps (undefined: no block). */
function signed(keep: ((held: Held[]) => Held[] | undefined) | undefined, b: HostTranscriptBuilder = hostTx(), change?: (answer: Obj) => Obj) {
  if (change) {
    b.scenario("unverifiable-attestation");
    const s = served("unverifiable-attestation", 0);
    b.handshake(s.ack).send({ type: "query", query: Q }).answer(change(s.answer));
    const held = keep?.(s.held);
    if (held) b.context(blockOf(held));
    return end(b);
  }
  const [s] = serveAll(b, "unverifiable-attestation");
  const held = keep?.(s!.held);
  if (held) b.context(blockOf(held));
  return end(b);
}
const lockStep = () =>
  hostTx().scenario("lock-step").handshake().send(query()).answer(frames()).context("Retrieved context.\n").send({ type: "shutdown" }).end();

runHostCases(F9, [
  {
    name: "the reference host: every frame composed, the unverifiable ones as unattested",
    build: () => signed((held) => held),
    status: "pass",
    says: [
      /scenario unverifiable-attestation, line \d+: the block composes every frame whose attestation the host cannot check \("fixture:freeze-1": its algorithm "cgp-conform:unheard-of-signature" is one no verifier recognises; "fixture:freeze-3": its key_id "cgp-conform-unpublished-key" names no key the provider published\), beside 1 unattested frame/,
    ],
  },
  {
    name: "every unverifiable frame dropped, the unattested one composed",
    build: () => signed((held) => held.filter((h) => id(h) === "fixture:freeze-4")),
    status: "fail",
    codes: ["host:F9.dropped-for-attestation"],
    says: [
      /the block leaves out 2 frames of cgp-conform-signed whose attestation the host cannot verify: "fixture:freeze-1" \(its algorithm .*\); "fixture:freeze-3" .*; it composes "fixture:freeze-4" of cgp-conform-signed, which carries none and is alike in kind, token_cost and score/,
      /the block leaves out 1 frame whose attestation is invalid, not uncheckable: "fixture:freeze-2" \(its signature does not verify under the published key\); §6\.5\.4 gives an invalid attestation the opposite response/,
    ],
  },
  {
    name: "only the frame with a bad signature dropped: invalid, not uncheckable, so it informs",
    build: () => signed((held) => held.filter((h) => id(h) !== "fixture:freeze-2")),
    status: "info",
    codes: ["host:F9.dropped-invalid"],
    says: [/leaves out 1 frame whose attestation is invalid, not uncheckable: "fixture:freeze-2" \(its signature does not verify/],
  },
  {
    name: "only the frame with an unknown key dropped",
    build: () => signed((held) => held.filter((h) => id(h) !== "fixture:freeze-3")),
    status: "fail",
    codes: ["host:F9.dropped-for-attestation"],
    says: [/leaves out 1 frame of cgp-conform-signed whose attestation the host cannot verify: "fixture:freeze-3" \(its key_id/],
  },
  {
    name: "one block per frame: every frame composed in some block, none dropped",
    build: () => {
      const b = hostTx();
      const [s] = serveAll(b, "unverifiable-attestation");
      for (const h of s!.held) b.context(blockOf([h]));
      return end(b);
    },
    status: "pass",
    says: [/scenario unverifiable-attestation, lines \d+.*: the 4 blocks compose every frame whose attestation the host cannot check/],
  },
  {
    name: "the unattested frame differs in score: its drop may be the score's, a warning",
    build: () =>
      signed(
        (held) => held.filter((h) => id(h) === "fixture:freeze-4"),
        hostTx(),
        (a) => {
          const r = a.result as Obj;
          return { ...a, result: { ...r, frames: (r.frames as Obj[]).map((f) => (f.id === "fixture:freeze-4" ? { ...f, score: 0.95 } : f)) } };
        },
      ),
    status: "warn",
    codes: ["host:F9.dropped-unexplained"],
    says: [/the unattested frames composed differ from them in kind, token_cost or score, so the attestation may not be why/],
  },
  {
    name: "a block with the unverifiable frames gone and no unattested one either",
    build: () => signed((held) => held.filter((h) => id(h) === "fixture:freeze-1").map((h) => ({ ...h, frame: h.frame }))),
    status: "warn",
    codes: ["host:F9.dropped-unexplained"],
    says: [/composes no unattested frame either/],
  },
  {
    name: "an answer carrying no attestation: nothing to judge",
    build: () =>
      signed(
        (held) => held,
        hostTx(),
        (a) => ({ ...a, result: { ...(a.result as Obj), frame_attestations: undefined } }),
      ),
    status: "skip",
    says: [/no frame the host was served .* carried an attestation that fails to verify/],
  },
  {
    name: "every query answered by an error: nothing reached the host",
    build: () => {
      const b = hostTx().scenario("unverifiable-attestation");
      b.handshake(served("unverifiable-attestation", 0).ack).send(query()).answer({ type: "error", code: "bad_request", message: "no" });
      return end(b, 1, 1);
    },
    status: "skip",
    says: [/the provider answered none of the host's 1 query with frames \(it exited with status 1\), so no unverifiable attestation reached it/],
  },
  {
    name: "no block here, one in lock-step: it admitted nothing",
    build: () => signed(() => undefined, lockStep()),
    status: "warn",
    codes: ["host:F9.admitted-nothing"],
    says: [/no block composes any of the 4 frames served .*: it admitted nothing, so that it keeps unverifiable frames cannot be shown/],
  },
  {
    name: "no block anywhere",
    build: () => signed(() => undefined, hostTx().scenario("lock-step").honest()),
    status: "skip",
    says: [/the host wrote no context block: name \{context\}/],
  },
]);
