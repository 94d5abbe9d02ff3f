import B2 from "../../../checks/host/B2.ts";
import { honestHost, type Held } from "../../../src/reference/host.ts";
import type { Obj } from "../../../src/protocol/envelope.ts";
import { frames, hostTx, query, runHostCases, type HostTranscriptBuilder } from "../../helpers/host-transcript.ts";
import { blockOf, end, Q, serveAll } from "../../helpers/adversarial.ts";
import { scenario } from "../../../src/reference/scenarios.ts";

const DROPPED =
  "reference-host: error budget_exceeded: provider cgp-conform-bulk broke B1: its 3 frames cost 6000 tokens, over the query's max_tokens 4000: all 3 dropped, none truncated (B2)";

interface Host {
  /** The frames of the breaking provider kept (all, some, none). */
  keep?: (held: Held[]) => Held[];
  /** Composes the honest provider's frames. */
  honest?: boolean;
  /** What it printed after the answers. */
  printed?: string[];
  /** Words of its own written ahead of its block. */
  header?: string;
  /** A usage report, from the rounds kept and rejected. */
  usage?: boolean;
  q?: Obj;
}

/** budget-breaker, the host as described. */
function breaker(host: Host, b: HostTranscriptBuilder = hostTx()) {
  const [bulk, docs] = serveAll(b, "budget-breaker", 2, host.q ?? Q);
  for (const line of host.printed ?? []) b.print("stderr", line);
  const kept = (host.keep ?? (() => []))(bulk!.held);
  const held = [...kept, ...(host.honest === false ? [] : docs!.held)];
  if (held.length > 0) b.context(`${host.header ?? ""}${blockOf(held)}`);
  if (host.usage) {
    const rounds = [
      { ack: bulk!.ack, queried: true, frames: kept.map((h) => h.frame), rejected: bulk!.held.length - kept.length },
      { ack: docs!.ack, queried: true, frames: docs!.held.map((h) => h.frame), rejected: 0 },
    ];
    b.usage(honestHost.usageReport.call(honestHost, rounds, "2026-11-30T00:00:00Z"));
  }
  return end(b, 2, 1);
}
/**
 * budget-breaker-one as a host that composes once at the end: a query (honest
 * frames), a verify, a query again (over budget), then its block of what it
 * kept (the first answer's frames, `first`) and of the later answer's (`later`).
 */
function breakerOne(host: { first?: (held: Held[]) => Held[]; later?: (held: Held[]) => Held[]; printed?: string[]; queries?: 1 | 2 }) {
  const b = hostTx().scenario("budget-breaker-one");
  const p = scenario("budget-breaker-one", { token: "canned-token-0123456789", nonce: "c0ffee00" }).provider;
  const ack = p.ack();
  const heldOf = (answer: Obj): Held[] => (((answer.result as Obj).frames as Obj[]) ?? []).map((frame) => ({ provider_id: "cgp-conform-lumpy", frame }));
  const [a1] = p.onQuery({ type: "query", query: Q });
  b.handshake(ack).send({ type: "query", query: Q }).answer(a1!);
  let held = (host.first ?? ((h) => h))(heldOf(a1!));
  if (host.queries !== 1) {
    const ids = heldOf(a1!)
      .filter((h) => typeof h.frame.content_digest === "string")
      .map((h) => ({ provider_id: "cgp-conform-lumpy", frame_id: h.frame.id, content_digest: h.frame.content_digest }));
    const [v] = p.onVerify({ type: "verify", request: { frames: ids } });
    b.send({ type: "verify", request: { frames: ids } }).answer(v!);
    const [a2] = p.onQuery({ type: "query", query: Q });
    b.send({ type: "query", query: Q }).answer(a2!);
    held = [...held, ...(host.later ?? (() => []))(heldOf(a2!))];
  }
  for (const line of host.printed ?? []) b.print("stderr", line);
  if (held.length > 0) b.context(blockOf(held));
  return end(b, 1, 1);
}
const LUMPY_DROPPED =
  "reference-host: error budget_exceeded: provider cgp-conform-lumpy broke B1: its 3 frames cost 6000 tokens, over the query's max_tokens 4000: all 3 dropped, none truncated (B2)";

/** lock-step, a block written. */
const lockStep = (b: HostTranscriptBuilder = hostTx()) =>
  b.scenario("lock-step").handshake().send(query()).answer(frames()).context("Retrieved context.\nRetry with backoff.\n").send({ type: "shutdown" }).end();

runHostCases(B2, [
  {
    name: "one provider: the answer over budget dropped, the first answer's frame composed once at the end, the drop printed",
    build: () => breakerOne({ first: (h) => h.slice(0, 1), printed: [LUMPY_DROPPED] }),
    status: "pass",
    says: [
      /scenario budget-breaker-one: no block composes a frame of cgp-conform-lumpy \(\{provider\}\), its answer over budget, whose answer \(line \d+\) cost 6000 tokens in 3 frames, over the query's max_tokens 4000 \(line \d+\), and the frames of cgp-conform-lumpy \(\{provider\}\), its answer within budget \(line \d+\) are composed/,
    ],
  },
  {
    name: "one provider: the answer over budget kept whole beside the first answer's frames",
    build: () => breakerOne({ later: (h) => h, printed: [] }),
    status: "fail",
    codes: ["host:B2.composed-all"],
    says: [/scenario budget-breaker-one, line \d+: the block composes all 3 frames of cgp-conform-lumpy \(\{provider\}\), its answer over budget/],
  },
  {
    name: "one provider: the answer over budget truncated to fit",
    build: () => breakerOne({ later: (h) => h.slice(0, 2) }),
    status: "fail",
    codes: ["host:B2.truncated"],
  },
  {
    name: "one provider: nothing composed at all, its honest answer's frames dropped too: a warning, never a failure",
    build: () =>
      breakerOne({ first: () => [], printed: [LUMPY_DROPPED] })
        .scenario("lock-step")
        .handshake()
        .send(query())
        .answer(frames())
        .context("Retrieved context.\n")
        .send({ type: "shutdown" })
        .end(),
    status: "warn",
    codes: ["host:B2.admitted-nothing"],
    strict: "warn",
    says: [/dropping every frame of a provider that broke B1, its honest answers' too, is a reading of B2 as well/],
  },
  {
    name: "one provider queried once: it breaks B1 only in later answers, so it skips, saying what would meet the breach",
    build: () => breakerOne({ queries: 1 }),
    status: "skip",
    says: [/scenario budget-breaker-one: the host queried cgp-conform-lumpy \(\{provider\}\) once \(line \d+\).*a host that queries it again in the same run/],
  },
  {
    name: "the reference host: the breaker dropped whole, the honest frames composed, an error on stderr",
    build: () => breaker({ printed: [DROPPED], usage: true }),
    status: "pass",
    says: [
      /scenario budget-breaker: no block composes a frame of cgp-conform-bulk \(\{provider\}\), whose answer \(line \d+\) cost 6000 tokens in 3 frames, over the query's max_tokens 4000 \(line \d+\), and the frames of cgp-conform-docs \(\{provider2\}\) are composed \(line \d+\); the host reported the drop \(stderr line \d+: "reference-host: error budget_exceeded/,
    ],
  },
  {
    name: "the drop recorded by the usage report alone",
    build: () => breaker({ usage: true }),
    status: "pass",
    says: [/the host reported the drop \(usage report line \d+: frames_rejected 3 for "cgp-conform-bulk"\)/],
  },
  {
    name: "dropped, and nothing the run can see reports it",
    build: () => breaker({}),
    status: "warn",
    codes: ["host:B2.drop-unreported"],
    says: [/but nothing the run can see reports the drop/],
  },
  {
    name: "a line about something else is no report",
    build: () => breaker({ printed: ["frame fixture:docs-1 kind doc 19 tokens"] }),
    status: "warn",
    codes: ["host:B2.drop-unreported"],
  },
  {
    name: "a budget summary on stderr is no report of the drop",
    build: () => breaker({ printed: ["mcp-host-driver: call 1: isError=false Retrieved 2 context frame(s), 35/4096 budget tokens."] }),
    status: "warn",
    codes: ["host:B2.drop-unreported"],
    says: [/but nothing the run can see reports the drop: .*a budget summary is no report of a drop/],
  },
  {
    name: "max_tokens named with no drop beside it is no report",
    build: () => breaker({ printed: ["query sent: max_tokens 4000, max_frames 8"] }),
    status: "warn",
    codes: ["host:B2.drop-unreported"],
  },
  {
    name: "the provider named beside a drop, on stderr",
    build: () => breaker({ printed: ["cgp-conform-bulk: 3 frames dropped"] }),
    status: "pass",
    says: [/the host reported the drop \(stderr line \d+: "cgp-conform-bulk: 3 frames dropped"\)/],
  },
  {
    name: "the drop reported in the block, outside the frames' content (as a real host's budget audit writes it)",
    build: () =>
      breaker({
        header: `Retrieved 2 context frame(s), 35/4096 budget tokens.\n{"budget_audit":{"budget_consumed":35,"budget_requested":4096,"dropped_budget_lie":[{"provider":"provider-1"}]}}\n`,
      }),
    status: "pass",
    says: [/the host reported the drop \(the block at line \d+, outside the frames' content: .*dropped_budget_lie/],
  },
  {
    name: "a budget summary in the block is no report either",
    build: () => breaker({ header: "Retrieved 2 context frame(s), 35/4096 budget tokens.\n" }),
    status: "warn",
    codes: ["host:B2.drop-unreported"],
  },
  {
    name: "truncated to fit: two of the three kept",
    build: () => breaker({ keep: (held) => held.slice(0, 2), printed: [DROPPED] }),
    status: "fail",
    codes: ["host:B2.truncated"],
    says: [
      /scenario budget-breaker, line \d+: the block composes 2 of the 3 frames of cgp-conform-bulk \(\{provider\}\) \("fixture:bulk-1", "fixture:bulk-2"\), and its answer \(line \d+\) cost 6000 tokens .*: keeping what fits truncates a provider that broke B1/,
    ],
  },
  {
    name: "kept whole",
    build: () => breaker({ keep: (held) => held }),
    status: "fail",
    codes: ["host:B2.composed-all"],
    says: [/the block composes all 3 frames of cgp-conform-bulk \(\{provider\}\), and its answer/],
  },
  {
    name: "nothing of either provider composed, a block written in lock-step: it admitted nothing",
    build: () => breaker({ honest: false, printed: [DROPPED] }, lockStep()),
    status: "warn",
    codes: ["host:B2.admitted-nothing"],
    says: [/none composes those of cgp-conform-docs \(\{provider2\}\) either, which kept within budget: the host admitted nothing/],
  },
  {
    name: "no block anywhere",
    build: () => breaker({ honest: false }, hostTx().scenario("lock-step").honest()),
    status: "skip",
    says: [/the host wrote no context block: name \{context\}/],
  },
  {
    name: "a budget over what the breaker can exceed: B1 never broken",
    build: () => breaker({ q: { ...Q, max_tokens: 1_000_000 } }),
    status: "skip",
    says: [
      /the host asked cgp-conform-bulk \(\{provider\}\) for max_tokens 1000000, and its answers \(line \d+\) kept within it: it serves at most 3 × 65536 tokens/,
    ],
  },
  {
    name: "no query sent to the breaker (its provider refused by the host, say)",
    build: () => {
      const b = hostTx().scenario("budget-breaker", { providers: 2 });
      b.provider(0).handshake();
      b.provider(1).handshake().send(query()).answer(frames());
      return end(b, 2);
    },
    status: "skip",
    says: [/the host sent cgp-conform-scenario \(\{provider\}\) no query \(it exited with status 0\), so no answer over budget reached it/],
  },
]);
