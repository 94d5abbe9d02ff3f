import CR1_order from "../../../checks/host/CR1-order.ts";
import type { Held } from "../../../src/reference/host.ts";
import type { ScenarioName } from "../../../src/protocol/host-scenarios.ts";
import { hostTx, runHostCases, type HostTranscriptBuilder } from "../../helpers/host-transcript.ts";
import { askAll, block, finish, report } from "../../helpers/compose.ts";

/** A host's own rendering, frames in the order given: nothing of the reference host's format. */
const plain = (held: Held[]): string => held.map((h) => `## ${String(h.frame.id)} (${h.provider_id})\n${String(h.frame.content)}`).join("\n\n");
const digest = (h: Held): string => (typeof h.frame.content_digest === "string" ? h.frame.content_digest : "");
const id = (h: Held): string => String(h.frame.id);
const byProvider = (a: Held, b: Held): number => (a.provider_id < b.provider_id ? -1 : a.provider_id > b.provider_id ? 1 : 0);

/** Run a composition scenario, writing the block `compose` makes of the frames held (and their usage report, if asked). */
function run(b: HostTranscriptBuilder, name: ScenarioName, compose: (held: Held[]) => string | undefined, opts: { usage?: boolean; providers?: number } = {}) {
  const n = opts.providers ?? 2;
  const held = askAll(b, name, n);
  const text = compose(held);
  if (text !== undefined) b.context(text);
  if (opts.usage) b.usage(report(held));
  return finish(b, n);
}
const both = (compose: (held: Held[]) => string | undefined, usage = false) =>
  run(run(hostTx(), "compose", compose, { usage }), "compose-reordered", compose, { usage });

/** compose-one and compose-one-reordered: one provider's frames. */
const one = (compose: (held: Held[]) => string | undefined, b: HostTranscriptBuilder = hostTx()) =>
  run(run(b, "compose-one", compose, { providers: 1 }), "compose-one-reordered", compose, { providers: 1 });

runHostCases(CR1_order, [
  {
    name: "one provider, the reference host: canonical, and byte-identical across arrival orders",
    build: () => one(block),
    status: "pass",
    says: [/scenarios compose-one \(line \d+\) and compose-one-reordered \(line \d+\): the same 7 frames, served in other orders, render byte-identically/],
  },
  {
    name: "one provider, arrival order: a failure in compose-one's words",
    build: () => one(plain),
    status: "fail",
    codes: ["host:CR1-order.follows-arrival"],
    says: [
      /scenarios compose-one \(line \d+\) and compose-one-reordered \(line \d+\) compose the same 7 frames, served with the same scores, each provider's answer in another order, and emit them in other orders: at place 1, "fixture:doc-9" of cgp-conform-solo in compose-one, "fixture:Beta" \(no content_digest\) of cgp-conform-solo in compose-one-reordered/,
    ],
  },
  {
    name: "both kinds run, arrival order in the one-provider kind alone: a failure there, a pass on the other",
    build: () => one(plain, both(block, true)),
    status: "fail",
    codes: ["host:CR1-order.follows-arrival", "host:CR1-order.reorder-identical"],
    says: [/scenarios compose \(line \d+\) and compose-reordered \(line \d+\): the same 8 frames, served in other orders, render byte-identically/],
  },
  {
    name: "the reference host's blocks: canonical, and byte-identical across arrival orders",
    build: () => run(both(block, true), "three-providers", block, { usage: true, providers: 3 }),
    status: "pass",
    says: [
      /scenario compose, line \d+: the block emits its 8 frames in canonical FrameId order, by the provider ids its usage reports give/,
      /scenarios compose \(line \d+\) and compose-reordered \(line \d+\): the same 8 frames, served in other orders, render byte-identically/,
      /scenario three-providers, line \d+: the block emits its 2 frames in canonical FrameId order/,
    ],
  },
  {
    name: "a format of the host's own, frames in canonical order: markers are all that is read",
    build: () => both((held) => plain([...held].sort((a, b) => byProvider(a, b) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : digest(a) < digest(b) ? -1 : 1)))),
    status: "pass",
  },
  {
    name: "one block per frame, in arrival order: no block shows an order, a skip that says so, never a pass",
    build: () => {
      const b = hostTx();
      for (const name of ["compose", "compose-reordered"] as const) {
        for (const h of askAll(b, name, 2)) b.context(plain([h]));
        finish(b, 2);
      }
      return b;
    },
    status: "skip",
    says: [/holds one frame of those served there at most: the order a block emits frames in shows only in a block of two or more/],
  },
  {
    name: "arrival order: the same frames, arriving otherwise, composed otherwise, a failure",
    build: () => both(plain),
    status: "fail",
    codes: ["host:CR1-order.follows-arrival"],
    says: [
      /scenarios compose \(line \d+\) and compose-reordered \(line \d+\) compose the same 8 frames, served with the same scores, each provider's answer in another order, and emit them in other orders: at place 1, "fixture:doc-9" of cgp-conform-wiki in compose, "fixture:Zeta" of cgp-conform-wiki in compose-reordered\. The order follows the order the frames arrived in/,
    ],
    never: [/scenario compose(-reordered)?, line \d+: the block emits/],
  },
  {
    name: "arrival order in compose alone: non-canonical, but nothing shows it follows arrival, a warning",
    build: () => run(hostTx(), "compose", plain),
    status: "warn",
    codes: ["host:CR1-order.out-of-order"],
    strict: "warn",
    says: [
      /scenario compose, line \d+: the block emits "fixture:shared" of cgp-conform-wiki before "fixture:doc-10" of cgp-conform-wiki, and canonical FrameId order puts it after/,
    ],
  },
  {
    name: "ranked by raw score across providers (§7's ScoreDescending): the same order whatever the arrival, a warning naming both sentences",
    build: () => both((held) => plain([...held].sort((a, b) => (b.frame.score as number) - (a.frame.score as number))), true),
    status: "warn",
    codes: ["host:CR1-order.out-of-order"],
    strict: "warn",
    says: [
      /scenario compose, line \d+: the block emits .* and canonical FrameId order puts it after .*context-reuse §1 asks for canonical order; protocol-surface §7: "ranking by raw score and saying so\. All are permitted"/,
      /scenarios compose \(line \d+\) and compose-reordered \(line \d+\): the same 8 frames, served in other orders, render byte-identically/,
    ],
    never: [/follows the order the frames arrived in/],
  },
  {
    name: "round-robin by within-provider rank (§7's RoundRobinByRank): a warning",
    build: () =>
      both((held) => {
        const ranked = (p: string) => held.filter((h) => h.provider_id === p).sort((a, b) => (b.frame.score as number) - (a.frame.score as number));
        const [wiki, code] = [ranked("cgp-conform-wiki"), ranked("cgp-conform-code")];
        return plain(wiki.flatMap((h, i) => [h, ...(code[i] ? [code[i]!] : [])]));
      }),
    status: "warn",
    codes: ["host:CR1-order.out-of-order"],
    never: [/follows the order the frames arrived in/],
  },
  {
    name: "a natural sort of frame ids (doc-9 before doc-10)",
    build: () =>
      both((held) =>
        plain(
          [...held].sort(
            (a, b) =>
              byProvider(a, b) ||
              id(a).localeCompare(id(b), "en", { numeric: true, sensitivity: "variant", caseFirst: "upper" }) ||
              digest(a).localeCompare(digest(b)),
          ),
        ),
      ),
    status: "warn",
    codes: ["host:CR1-order.out-of-order"],
    says: [
      /frame ids compare by code point, as bytes, not as words or numbers.*; also .*"fixture:doc-9" of cgp-conform-wiki before "fixture:doc-10" of cgp-conform-wiki/,
    ],
  },
  {
    name: "a case-blind sort (alpha before Beta)",
    build: () =>
      both((held) =>
        plain([...held].sort((a, b) => byProvider(a, b) || id(a).toLowerCase().localeCompare(id(b).toLowerCase()) || digest(a).localeCompare(digest(b)))),
      ),
    status: "warn",
    codes: ["host:CR1-order.out-of-order"],
    says: [/emits "fixture:alpha" of cgp-conform-code before "fixture:Beta" \(no content_digest\) of cgp-conform-code/],
  },
  {
    name: "a frame without its digest after the same frame id with one",
    build: () =>
      both((held) => plain([...held].sort((a, b) => byProvider(a, b) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : digest(b).localeCompare(digest(a)))))),
    status: "warn",
    codes: ["host:CR1-order.out-of-order"],
    says: [
      /emits "fixture:shared" of cgp-conform-wiki before "fixture:shared" \(no content_digest\) of cgp-conform-wiki, .*the same frame id orders by content_digest, an absent one first/,
    ],
  },
  {
    name: "providers the other way round, no usage report to give the host's ids: canonical under the keying the block gives, no fault",
    build: () =>
      both((held) => plain([...held].sort((a, b) => -byProvider(a, b) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : digest(a) < digest(b) ? -1 : 1)))),
    status: "pass",
    says: [
      /scenario compose, line \d+: the block emits its 8 frames in canonical FrameId order, by provider ids that sort cgp-conform-wiki before cgp-conform-code \(its usage reports name none of them/,
    ],
  },
  {
    name: "keyed by position as a real host does (provider-1 wiki, provider-2 code), arrival order within a provider, compose alone: only the within-provider pairs are out of order",
    build: () =>
      run(hostTx(), "compose", (held) =>
        held
          .map((h) =>
            JSON.stringify({ provider: h.provider_id === "cgp-conform-wiki" ? "provider-1" : "provider-2", id: h.frame.id, content: h.frame.content }),
          )
          .join("\n"),
      ),
    status: "warn",
    codes: ["host:CR1-order.out-of-order"],
    says: [
      /scenario compose, line \d+: the block emits "fixture:shared" of cgp-conform-wiki before "fixture:doc-10" of cgp-conform-wiki, .*provider ids that sort cgp-conform-wiki before cgp-conform-code/,
    ],
    never: [/of cgp-conform-wiki before "[^"]+"( \(no content_digest\))? of cgp-conform-code/, /provider ids compare first/],
  },
  {
    name: "two blocks of one scenario putting the providers in opposite orders: no one keying, a warning",
    build: () => {
      const canonical = (held: Held[], sign: number) =>
        plain([...held].sort((a, b) => sign * byProvider(a, b) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : digest(a) < digest(b) ? -1 : 1)));
      const b = hostTx();
      const held = askAll(b, "compose", 2);
      b.context(canonical(held, 1)).context(canonical(held, -1));
      return finish(b, 2);
    },
    status: "warn",
    codes: ["host:CR1-order.no-one-keying"],
    strict: "warn",
    says: [
      /scenario compose: its blocks order the providers' frames in ways no one keying of the providers makes canonical \(cgp-conform-code's before cgp-conform-wiki's at line \d+, the other way at line \d+\)/,
    ],
  },
  {
    name: "providers the other way round, and the usage reports give the ids: out of order, a warning",
    build: () =>
      both((held) => plain([...held].sort((a, b) => -byProvider(a, b) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : digest(a) < digest(b) ? -1 : 1))), true),
    status: "warn",
    codes: ["host:CR1-order.out-of-order"],
    says: [
      /emits "fixture:shared" of cgp-conform-wiki before "fixture:Beta" \(no content_digest\) of cgp-conform-code, .*provider ids compare first; provider ids: the provider ids its usage reports give/,
    ],
  },
  {
    name: "two providers' frames interleaved: no provider ids make that canonical",
    build: () =>
      both((held) => plain([...held].sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : byProvider(a, b) || (digest(a) < digest(b) ? -1 : 1))))),
    status: "warn",
    codes: ["host:CR1-order.out-of-order"],
    says: [/a provider's frames stand together, its provider id comparing first; provider ids: no keying of the providers/],
  },
  {
    name: "canonical order, but something else changes with arrival order: a warning",
    build: () => {
      let turn = 0;
      return both((held) => `turn ${++turn}\n${block(held)}`);
    },
    status: "warn",
    codes: ["host:CR1-order.reorder-differs"],
    says: [/scenarios compose \(line \d+\) and compose-reordered \(line \d+\) compose the same 8 frames, .*the blocks differ from character 5: "turn 1\\n/],
  },
  {
    name: "no block anywhere, and no {context} in the command",
    build: () => both(() => undefined),
    status: "skip",
    says: [/the host wrote no context block: name \{context\} in its command line \(or read CGP_CONTEXT_PATH\)/],
  },
  {
    name: "blocks that hold no frame's content",
    build: () => both((held) => held.map((h) => String(h.frame.title)).join("\n")),
    status: "skip",
    says: [/hold no block with the content of a frame served there/],
  },
  {
    name: "the composition scenarios skipped for want of {provider2}",
    build: () =>
      hostTx()
        .scenario("compose", { skipped: "it serves 2 providers, and the host command names no {provider2}" })
        .scenario("compose-reordered", { skipped: "it serves 2 providers, and the host command names no {provider2}" }),
    status: "skip",
    says: [/compose: it serves 2 providers, and the host command names no \{provider2\}/],
  },
]);
