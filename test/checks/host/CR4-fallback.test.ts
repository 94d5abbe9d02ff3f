import CR4 from "../../../checks/host/CR4-fallback.ts";
import { hostTx, query, runHostCases, type HostTranscriptBuilder } from "../../helpers/host-transcript.ts";
import { only, plain } from "../../helpers/reuse.ts";
import { scenario } from "../../../src/reference/scenarios.ts";
import type { Obj } from "../../../src/protocol/envelope.ts";

const Q = { goal: "g", kinds: [], max_frames: 8, max_tokens: 4000 };
const framesOf = (a: Obj): Obj[] => ((a.result as Obj).frames as Obj[]) ?? [];

/** What a host holds in reuse-without-verify: the first answer's frames, and each later answer's. */
type Held = { first: Obj[]; second: Obj[] };

/**
 * reuse-without-verify as a host ran it: the scenario provider's own ack and
 * answers, `queries` queries (the later ones answered with the first answer
 * again where `afresh`: a host that started its provider again), and the
 * blocks a test composes. Lines: handshake 2–3, queries 4–5 and 6–7.
 */
function run(blocks: (h: Held) => Array<Obj[] | string>, queries = 2, afresh = false): HostTranscriptBuilder {
  const p = scenario("reuse-without-verify", { token: "t", nonce: "n" }).provider;
  const b = hostTx().scenario("reuse-without-verify").handshake(p.ack());
  const answers: Obj[] = [];
  for (let i = 0; i < queries; i++) {
    const a = afresh && i > 0 ? answers[0]! : p.onQuery({ type: "query", query: Q })[0]!;
    answers.push(a);
    b.send(query()).answer(a);
  }
  b.send({ type: "shutdown" });
  const held = { first: framesOf(answers[0]!), second: answers[1] ? framesOf(answers[1]) : [] };
  for (const block of blocks(held)) b.context(typeof block === "string" ? block : plain(block));
  return b.end({ code: 0 });
}

runHostCases(CR4, [
  {
    name: "an honest host: a block a turn, the second from the query again alone",
    build: () => run((h) => [h.first, h.second]),
    status: "pass",
    says: [
      /scenario reuse-without-verify: the provider declares no verify; the host queried it again \(line 7\), and the block composed after that \(\{context\} line 10\) holds no stored copy of the frames its answers changed or no longer serve \(cgpmark-rq-02, cgpmark-rq-03, cgpmark-rq-04\)/,
    ],
  },
  {
    name: "one block, composed at the end from the query again: enough to judge",
    build: () => run((h) => [h.second]),
    status: "pass",
    lines: [9],
  },
  {
    name: "the stale and gone copies kept beside the query again",
    build: () => run((h) => [h.first, [...h.first, ...only(h.second, "fixture:changed", "fixture:resized")]]),
    status: "fail",
    codes: ["host:CR4-fallback.stored-copy"],
    says: [
      /scenario reuse-without-verify, the second block \(\{context\} line 10\): it holds the stored copies of 3 frames: "fixture:changed" \(cgpmark-rq-02\): served again with other content \(cgpmark-rq-12, line 7\); "fixture:removed" \(cgpmark-rq-03\): not served again by any later answer; "fixture:resized" \(cgpmark-rq-04\): served again with other content \(cgpmark-rq-14, line 7\)/,
      /the block was composed after that, since it holds cgpmark-rq-1[24], first served at line 7/,
    ],
    lines: [10, 7],
  },
  {
    name: "a host composing once, at the end, with a stale copy in its only block: its first block fails",
    build: () => run((h) => [[...only(h.first, "fixture:changed"), ...h.second]]),
    status: "fail",
    codes: ["host:CR4-fallback.stored-copy"],
    says: [/the first block \(\{context\} line 9\): it holds the stored copy of "fixture:changed" \(cgpmark-rq-02\)/],
    never: [/fixture:removed/],
  },
  {
    name: "the gone copy alone",
    build: () => run((h) => [h.first, [...h.second, ...only(h.first, "fixture:removed")]]),
    status: "fail",
    codes: ["host:CR4-fallback.stored-copy"],
    says: [/"fixture:removed" \(cgpmark-rq-03\): not served again by any later answer/],
    never: [/cgpmark-rq-02\)/],
  },
  {
    name: "a later block of stored frames only: when it was composed cannot be told, so it warns",
    build: () => run((h) => [h.first, only(h.first, "fixture:kept", "fixture:changed")]),
    status: "warn",
    codes: ["host:CR4-fallback.stored-copy-undated"],
    strict: "warn",
    says: [/nothing in the block shows it was composed after the query again \(it holds no frame first served after line 5\)/],
  },
  {
    name: "queried once: nothing held across queries",
    build: () => run((h) => [h.first], 1),
    status: "skip",
    says: [
      /the host queried once in reuse-without-verify \(its answer at line 5\).*a host that queries again \(a second turn\) and composes after it is judged/,
    ],
  },
  {
    name: "a host that started its provider afresh got the first answer again: nothing changed for it",
    build: () => run((h) => [h.first, h.first], 2, true),
    status: "skip",
    says: [/every frame of the host's first answer in reuse-without-verify \(line 5\) was served again as it was/],
  },
  {
    name: "queried again, but composed only before it",
    build: () => run((h) => [h.first]),
    status: "skip",
    says: [/no block the host wrote in reuse-without-verify \(\{context\} line 9\) holds a frame first served after its first answer \(line 5\)/],
  },
  {
    name: "no block at all",
    build: () => run(() => []),
    status: "skip",
    says: [/the host wrote no context block: name \{context\}/],
  },
  {
    name: "scenario reuse-without-verify not run",
    build: () => hostTx().scenario("lock-step").honest(),
    status: "skip",
    says: [/reuse-without-verify was not run/],
  },
]);
