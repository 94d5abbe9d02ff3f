import F10 from "../../../checks/host/F10.ts";
import type { Held } from "../../../fixtures/host.ts";
import { providerName } from "../../../src/protocol/caps.ts";
import type { Obj } from "../../../src/protocol/envelope.ts";
import type { ScenarioName } from "../../../src/protocol/host-scenarios.ts";
import { hostTx, query, runHostCases, type HostTranscriptBuilder } from "../../helpers/host-transcript.ts";
import { askAll, block, finish, servedBy } from "../../helpers/compose.ts";

const score = (h: Held): number => h.frame.score as number;

/** A scenario of two providers, each asked `q`, the block `compose` makes of what they served written to {context}. */
function run(b: HostTranscriptBuilder, name: ScenarioName, compose: (held: Held[]) => string | undefined, q: Obj = {}): HostTranscriptBuilder {
  const held: Held[] = [];
  if (Object.keys(q).length === 0) held.push(...askAll(b, name, 2));
  else {
    b.scenario(name, { providers: 2 });
    for (let i = 0; i < 2; i++) {
      const { ack, frames } = servedBy(name, i);
      b.provider(i)
        .handshake(ack)
        .send(query(q))
        .answer({ type: "frames", result: { frames, truncated: false } });
      held.push(...frames.map((frame) => ({ provider_id: providerName(ack)!, frame })));
    }
  }
  const text = compose(held);
  if (text !== undefined) b.context(text);
  return finish(b, 2);
}

const keep = (p: (h: Held) => boolean) => (held: Held[]) => block(held.filter(p));
/** score-ranges composed by `compose`, beside compose composed whole. */
const scored = (compose: (held: Held[]) => string | undefined, q: Obj = {}) => run(run(hostTx(), "compose", block), "score-ranges", compose, q);

runHostCases(F10, [
  {
    name: "the reference host's block: every frame of both providers",
    build: () => scored(block),
    status: "pass",
    says: [
      /scenario score-ranges, line \d+: the blocks hold all 4 frames of both providers, 2 of the 2 frames of cgp-conform-wiki \(scores 0\.4–0\.95\) and 2 of the 2 frames of cgp-conform-code \(scores 0\.001–0\.009\)/,
    ],
  },
  {
    name: "a threshold of 0.05 across providers, with room for all",
    build: () => scored(keep((h) => score(h) >= 0.05)),
    status: "fail",
    says: [
      /the blocks hold none of cgp-conform-code's 2 frames \("fixture:limits" \(score 0\.009\), "fixture:schema" \(score 0\.001\)\) and 2 of the 2 frames of cgp-conform-wiki/,
      /with room for all by its own queries \(max_frames 5, max_tokens 2000; 4 frames, \d+ tokens served\)/,
      /a threshold applied across providers/,
    ],
  },
  {
    name: "the same drop where the host asked for fewer frames than both answers hold: a budget may explain it",
    build: () =>
      scored(
        keep((h) => score(h) >= 0.05),
        { max_frames: 3 },
      ),
    status: "info",
    says: [
      /something other than a threshold across providers may explain it: the 4 frames \(\d+ tokens\) served exceed what it asked for in one query \(max_frames 3/,
    ],
  },
  {
    name: "the same drop from a host that composes one provider alone in compose too",
    build: () =>
      run(
        run(
          hostTx(),
          "compose",
          keep((h) => h.provider_id === "cgp-conform-wiki"),
        ),
        "score-ranges",
        keep((h) => score(h) >= 0.05),
      ),
    status: "info",
    says: [/in compose no block holds frames of both its providers, so the host may compose one provider alone/],
  },
  {
    name: "a partial cut of one provider's frames: a threshold on its own scores is permitted",
    build: () => scored(keep((h) => score(h) !== 0.001)),
    status: "info",
    says: [/left out: "fixture:schema" \(score 0\.001\) of cgp-conform-code\. A threshold on one provider's own scores is permitted/],
  },
  {
    name: "the high-scoring provider dropped: no threshold does that, but it warns",
    build: () => scored(keep((h) => h.provider_id === "cgp-conform-code")),
    status: "warn",
    says: [/the blocks hold none of cgp-conform-wiki's 2 frames .*, though they score highest/],
  },
  {
    name: "blocks holding no frame at all: never a pass",
    build: () => scored(() => "Retrieved context: nothing relevant."),
    status: "warn",
    says: [/the host's blocks hold none of the 4 frames its two providers served, so whether it applies a score threshold cannot be seen/],
  },
  {
    name: "no context block written",
    build: () => scored(() => undefined),
    status: "skip",
    says: [/the host wrote no context block: name \{context\}/],
  },
  {
    name: "the scenario did not run",
    build: () => hostTx().scenario("score-ranges", { skipped: "it serves 2 providers, and the host command names no {provider2}", providers: 2 }),
    status: "skip",
    says: [/score-ranges: it serves 2 providers, and the host command names no \{provider2\}/],
  },
]);
