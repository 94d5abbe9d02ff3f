import F10 from "../../../checks/host/F10.ts";
import type { Held } from "../../../src/reference/host.ts";
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
/** A host keeping the global top k of what it holds by raw score, across providers. */
const topK = (k: number) => (held: Held[]) => block([...held].sort((a, b) => score(b) - score(a)).slice(0, k));
/** score-ranges composed by `compose`, beside compose composed whole. */
const scored = (compose: (held: Held[]) => string | undefined, q: Obj = {}) => run(run(hostTx(), "compose", block), "score-ranges", compose, q);

runHostCases(F10, [
  {
    name: "the reference host's block: every frame of both providers",
    build: () => scored(block),
    status: "pass",
    codes: ["host:F10.all-held"],
    says: [
      /scenario score-ranges, line \d+: the blocks hold all 4 frames of both providers, 2 of the 2 frames of cgp-conform-wiki \(scores 0\.4–0\.95\) and 2 of the 2 frames of cgp-conform-code \(scores 0\.001–0\.009\)/,
    ],
  },
  {
    name: "a threshold of 0.05 across providers, with room for all",
    build: () => scored(keep((h) => score(h) >= 0.05)),
    status: "fail",
    codes: ["host:F10.threshold"],
    says: [
      /the blocks hold none of cgp-conform-code's 2 frames \("fixture:limits" \(score 0\.009\), "fixture:schema" \(score 0\.001\)\) and 2 of the 2 frames of cgp-conform-wiki/,
      /with room for all by its own queries \(max_frames 5, max_tokens 2000; 4 frames, \d+ tokens served\)/,
      /a threshold applied across providers/,
    ],
  },
  {
    name: "the global top 2 by raw score, in compose too: a ranking §7 permits, no threshold, it informs",
    build: () => run(run(hostTx(), "compose", topK(2)), "score-ranges", topK(2)),
    status: "info",
    codes: ["host:F10.drop-explained"],
    says: [
      /the blocks hold the 2 frames scoring highest of both answers, and compose's largest block \(line \d+\) holds 2 frames \(\d+ tokens\), not the 4 \(\d+ tokens\) served here: a host that keeps the global top 2 by raw score, a ranking §7 permits/,
    ],
    never: [/a threshold applied across providers/],
  },
  {
    name: "the global top 3 by raw score: still no threshold, it informs",
    build: () => run(run(hostTx(), "compose", topK(3)), "score-ranges", topK(3)),
    status: "info",
    codes: ["host:F10.partial-cut"],
    says: [/left out: "fixture:schema" \(score 0\.001\) of cgp-conform-code/],
  },
  {
    name: "the global top 2 by raw score in score-ranges, while compose's block holds all 8: a cut at a value, a failure",
    build: () => scored(topK(2)),
    status: "fail",
    codes: ["host:F10.threshold"],
  },
  {
    name: "a threshold of 0.05 across providers, compose composed by it as well: compose's block holds all 8, still a failure",
    build: () =>
      run(
        run(
          hostTx(),
          "compose",
          keep((h) => score(h) >= 0.05),
        ),
        "score-ranges",
        keep((h) => score(h) >= 0.05),
      ),
    status: "fail",
    codes: ["host:F10.threshold"],
  },
  {
    name: "the same drop where the host asked for fewer frames than both answers hold: a budget may explain it",
    build: () =>
      scored(
        keep((h) => score(h) >= 0.05),
        { max_frames: 3 },
      ),
    status: "info",
    codes: ["host:F10.drop-explained"],
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
    codes: ["host:F10.drop-explained"],
    says: [/in compose no block holds frames of both its providers, so the host may compose one provider alone/],
  },
  {
    name: "a partial cut of one provider's frames: a threshold on its own scores is permitted",
    build: () => scored(keep((h) => score(h) !== 0.001)),
    status: "info",
    codes: ["host:F10.partial-cut"],
    says: [/left out: "fixture:schema" \(score 0\.001\) of cgp-conform-code\. A threshold on one provider's own scores is permitted/],
  },
  {
    name: "the high-scoring provider dropped: an inverted threshold or a permitted reranker, it warns",
    build: () => scored(keep((h) => h.provider_id === "cgp-conform-code")),
    status: "warn",
    codes: ["host:F10.high-dropped"],
    says: [
      /the blocks hold none of cgp-conform-wiki's 2 frames .*, though they score highest, .*: a cut keeping scores below a value across providers \(scores taken for distances\) does that, and so may a reranker or trust weighting of the host's own, which §7 permits/,
    ],
  },
  {
    name: "blocks holding no frame here, while compose's hold them: never a pass",
    build: () => scored(() => "Retrieved context: nothing relevant."),
    status: "info",
    codes: ["host:F10.none-held"],
    says: [
      /the host's blocks hold none of the 4 frames its two providers served, though in compose they hold frames: every frame of both providers left out, .*whether it applies a score threshold across providers cannot be seen/,
    ],
    never: [/compose a block/],
  },
  {
    name: "blocks that hold no frame content anywhere (here or in compose): nothing can be seen, a skip",
    build: () =>
      run(
        run(hostTx(), "compose", () => "Retrieved 8 context frame(s)."),
        "score-ranges",
        () => "Retrieved 4 context frame(s).",
      ),
    status: "skip",
    says: [/the host's 2 lines in \{context\} \(score-ranges, compose\) hold no block with the content of a frame served there/],
  },
  {
    name: "a host of two calls: the second answer re-serves every frame, and the blocks hold all of them",
    build: () => {
      const b = run(hostTx(), "compose", block);
      b.scenario("score-ranges", { providers: 2 });
      const held: Held[] = [];
      for (let i = 0; i < 2; i++) {
        const { ack, frames } = servedBy("score-ranges", i);
        b.provider(i).handshake(ack);
        for (let call = 0; call < 2; call++)
          b.provider(i)
            .send(query())
            .answer({ type: "frames", result: { frames, truncated: false } });
        held.push(...frames.map((frame) => ({ provider_id: providerName(ack)!, frame })));
      }
      b.context(block(held));
      b.context(block(held));
      return finish(b, 2);
    },
    status: "pass",
    codes: ["host:F10.all-held"],
    says: [
      /the blocks hold all 4 frames of both providers, 2 of the 2 frames of cgp-conform-wiki \(scores 0\.4–0\.95\) and 2 of the 2 frames of cgp-conform-code/,
    ],
    never: [/left out/, /share their content or identity/],
  },
  {
    name: "a host of two calls that cuts the low-scoring provider: the re-served copies are not counted twice",
    build: () => {
      const b = run(hostTx(), "compose", block);
      b.scenario("score-ranges", { providers: 2 });
      const held: Held[] = [];
      for (let i = 0; i < 2; i++) {
        const { ack, frames } = servedBy("score-ranges", i);
        b.provider(i).handshake(ack);
        for (let call = 0; call < 2; call++)
          b.provider(i)
            .send(query())
            .answer({ type: "frames", result: { frames, truncated: false } });
        held.push(...frames.map((frame) => ({ provider_id: providerName(ack)!, frame })));
      }
      b.context(block(held.filter((h) => score(h) >= 0.05)));
      b.context(block(held.filter((h) => score(h) >= 0.05)));
      return finish(b, 2);
    },
    status: "fail",
    codes: ["host:F10.threshold"],
    says: [/the blocks hold none of cgp-conform-code's 2 frames .* and 2 of the 2 frames of cgp-conform-wiki/, /4 frames, \d+ tokens served/],
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
