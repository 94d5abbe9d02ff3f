import CR1_render from "../../../checks/host/CR1-render.ts";
import type { Held } from "../../../src/reference/host.ts";
import type { ScenarioName } from "../../../src/protocol/host-scenarios.ts";
import { hostTx, runHostCases, type HostTranscriptBuilder } from "../../helpers/host-transcript.ts";
import { askAll, block, finish } from "../../helpers/compose.ts";

type Compose = (held: Held[], scenario: ScenarioName) => string | undefined;

function run(b: HostTranscriptBuilder, name: ScenarioName, compose: Compose) {
  const n = name.startsWith("compose-one") ? 1 : 2;
  const held = askAll(b, name, n);
  const text = compose(held, name);
  if (text !== undefined) b.context(text);
  return finish(b, n);
}
/** compose-one and its twins: one provider's frames. */
const one = (compose: Compose, b: HostTranscriptBuilder = hostTx()) =>
  run(run(run(b, "compose-one", compose), "compose-one-reordered", compose), "compose-one-rescored", compose);
/** As run, with two blocks of the same frames, as a host querying twice that renders them alike writes them. */
function runTwice(b: HostTranscriptBuilder, name: ScenarioName, compose: Compose) {
  const held = askAll(b, name, 2);
  const text = compose(held, name);
  if (text !== undefined) b.context(text).context(text);
  return finish(b, 2);
}
const allTwice = (compose: Compose) => runTwice(runTwice(runTwice(hostTx(), "compose", compose), "compose-reordered", compose), "compose-rescored", compose);
/** A host of its own (as a real one seen in the field does): frames as JSON in arrival order, with `extra` of each; an as_of to the second ahead of them if `clock`, ticking between scenarios. */
const clocks: Record<string, string> = { compose: "49", "compose-reordered": "49", "compose-rescored": "50" };
const arrival =
  (extra: (h: Held) => Record<string, unknown>, clock = false): Compose =>
  (held, scenario) =>
    `${clock ? `{"as_of":"2026-12-02T03:16:${clocks[scenario]}Z"}\n` : ""}${held
      .map((h) => JSON.stringify({ content: h.frame.content, id: h.frame.id, provider: h.provider_id, ...extra(h), title: h.frame.title }))
      .join("\n")}`;
/** compose, compose-reordered and compose-rescored, each block made by `compose`. */
const all = (compose: Compose) => run(run(run(hostTx(), "compose", compose), "compose-reordered", compose), "compose-rescored", compose);
/** The reference host's block with something added to each frame's rendering. */
const withEach =
  (add: (h: Held, scenario: ScenarioName) => string): Compose =>
  (held, scenario) =>
    block(held.map((h) => ({ ...h, frame: { ...h.frame, title: `${String(h.frame.title)}${add(h, scenario)}` } })));

runHostCases(CR1_render, [
  {
    name: "one provider, the reference host: every score changed, the same bytes",
    build: () => one(block),
    status: "pass",
    says: [/scenarios compose-one \(line \d+\) and compose-one-rescored \(line \d+\): the same 7 frames, every score changed, render byte-identically/],
  },
  {
    name: "one provider, the score in each fence: a failure, named in compose-one's words",
    build: () => one(withEach((h) => ` score=${String(h.frame.score)}`)),
    status: "fail",
    codes: ["host:CR1-render.score-rendered"],
    says: [
      /scenarios compose-one \(line \d+\) and compose-one-rescored \(line \d+\) compose the same 7 frames.*compose-one-reordered's block \(line \d+\) is compose-one's byte for byte/,
    ],
  },
  {
    name: "both kinds run: the score in the bytes fails in each",
    build: () =>
      one(
        withEach((h) => ` score=${String(h.frame.score)}`),
        all(withEach((h) => ` score=${String(h.frame.score)}`)),
      ),
    status: "fail",
    says: [/scenarios compose \(line \d+\) and compose-rescored/, /scenarios compose-one \(line \d+\) and compose-one-rescored/],
  },
  {
    name: "the reference host: every score changed, the same bytes",
    build: () => all(block),
    status: "pass",
    says: [/scenarios compose \(line \d+\) and compose-rescored \(line \d+\): the same 8 frames, every score changed, render byte-identically/],
  },
  {
    name: "a score rendered beside each frame",
    build: () => all(withEach((h) => ` [relevance ${String(h.frame.score)}]`)),
    status: "fail",
    codes: ["host:CR1-render.score-rendered"],
    says: [
      /differing in their scores alone, and the blocks differ from character \d+: .*, where a score \("0\.\d\d"\) is written; compose-reordered's block \(line \d+\) is compose's byte for byte/,
    ],
  },
  {
    name: "a score rounded to two places is found too",
    build: () => all(withEach((h) => ` (${(h.frame.score as number).toFixed(2)})`)),
    status: "fail",
    codes: ["host:CR1-render.score-rendered"],
  },
  {
    name: "a clock in every block: the difference is not the score's",
    build: () => {
      let t = 0;
      return all((held) => `at 12:00:0${++t}\n${block(held)}`);
    },
    status: "warn",
    codes: ["host:CR1-render.bytes-differ"],
    strict: "warn",
    says: [
      /compose-reordered's block \(line \d+\) differs from compose's too, and neither scenario wrote two blocks of its own byte-identical, so what changed cannot be put down to the score alone/,
    ],
  },
  {
    name: "a rank derived from the score, no score written: a warning",
    build: () =>
      all(
        withEach((h, scenario) => {
          const s = h.frame.score as number;
          return scenario === "compose-rescored" ? (s > 0.5 ? " ★" : "") : s > 0.8 ? " ★" : "";
        }),
      ),
    status: "warn",
    codes: ["host:CR1-render.bytes-differ"],
    says: [/no score is written where they part, so what changed cannot be put down to the score alone/],
  },
  {
    name: "a frame left out where its score is low: different frames, not compared",
    build: () => all((held) => block(held.filter((h) => (h.frame.score as number) > 0.5))),
    status: "pass",
    says: [/the blocks compose different frames \(\d+ frames and \d+ frames\): selection may depend on score, so their bytes are not compared/],
  },
  {
    name: "arrival order, a score in each frame, two calls per scenario rendering alike: the host's own two blocks show it renders alike, a failure",
    build: () => allTwice(arrival((h) => ({ score: h.frame.score, token_cost: h.frame.token_cost }))),
    status: "fail",
    codes: ["host:CR1-render.score-rendered"],
    says: [
      /where a score \("0\.\d+"\) is written; compose's own 2 blocks \(lines \d+, \d+\) are byte-identical to each other, so nothing but the score changed them/,
    ],
  },
  {
    // The two blocks hold, at the place they part, exactly the two scores one frame was served with: that is the score
    // in the bytes, whether or not anything shows the host renders alike (its order follows arrival, CR1-order's).
    name: "the same, with one call per scenario: each block holds its scenario's served score where they part, a failure",
    build: () => all(arrival((h) => ({ score: h.frame.score }))),
    status: "fail",
    codes: ["host:CR1-render.score-rendered-later"],
    says: [
      /, and there, at character \d+: "0\.97" in compose, "0\.31" in compose-rescored, exactly the scores each serves "fixture:[^"]+" of cgp-conform-\w+ with: the score reached the bytes whatever else differs \|/,
    ],
  },
  {
    name: "a clock to the second first, then a score as a 32-bit float, one call per scenario: the score's place fails",
    build: () => all(arrival((h) => ({ score: Math.fround(h.frame.score as number) }), true)),
    status: "fail",
    codes: ["host:CR1-render.score-rendered-later"],
  },
  {
    name: "a clock to the second first, a score (as a 32-bit float) later, two calls alike: the score's place fails",
    build: () => allTwice(arrival((h) => ({ score: Math.fround(h.frame.score as number) }), true)),
    status: "fail",
    codes: ["host:CR1-render.score-rendered-later"],
    says: [
      /the blocks differ from character \d+: .*, where no score is written, but past 1 other place where they differ, at character \d+: "0\.\d+" in compose, "0\.\d+" in compose-rescored, exactly the scores each serves "fixture:[^"]+" of cgp-conform-\w+ with: the score reached the bytes whatever else differs; compose's own 2 blocks/,
    ],
  },
  {
    name: "a clock to the second, no score, two calls alike: a warning, not a failure",
    build: () => allTwice(arrival(() => ({}), true)),
    status: "warn",
    codes: ["host:CR1-render.bytes-differ"],
    strict: "warn",
    says: [/no score is written where they part, so what changed cannot be put down to the score alone/],
    never: [/the score reached the bytes/],
  },
  {
    name: "the reference host queried twice: the same bytes",
    build: () => allTwice(block),
    status: "pass",
  },
  {
    name: "no block in compose-rescored: nothing to compare",
    build: () => all((held, scenario) => (scenario === "compose-rescored" ? undefined : block(held))),
    status: "skip",
    says: [/the host wrote 1 block with the frames of compose and 0 blocks with those of compose-rescored: no two to compare/],
  },
  {
    name: "no block at all, {context} named",
    build: () => all(() => undefined).commandLine(["host", "--context", "{context}", "{provider}", "{provider2}"]),
    status: "skip",
    says: [/the host's command names \{context\}, but it wrote no context block there/],
  },
]);
