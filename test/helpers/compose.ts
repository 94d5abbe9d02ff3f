/**
 * Canned composition scenarios for host-check tests: the scenario providers'
 * own acks and answers (src/reference/compose.ts), recorded as a host that asked
 * each of them one query would have them, and the frames it then holds.
 */
import { honestHost, type Held } from "../../src/reference/host.ts";
import { scenario } from "../../src/reference/scenarios.ts";
import { providerName } from "../../src/protocol/caps.ts";
import type { Obj } from "../../src/protocol/envelope.ts";
import type { ScenarioName } from "../../src/protocol/host-scenarios.ts";
import { query, type HostTranscriptBuilder } from "./host-transcript.ts";

const SECRETS = { token: "canned-token-0123456789", nonce: "c0ffee00" };

/** What provider `index` of a scenario answers a query with: its ack and the frames. */
export function servedBy(name: ScenarioName, index: number, q: Obj = { goal: "g", kinds: [], max_frames: 8, max_tokens: 4000 }): { ack: Obj; frames: Obj[] } {
  const p = scenario(name, SECRETS, index).provider;
  const [answer] = p.onQuery({ type: "query", query: q });
  return { ack: p.ack(), frames: ((answer!.result as Obj).frames as Obj[]) ?? [] };
}

/**
 * Add a scenario with `providers` providers to a builder: each handshaken,
 * asked one query and answered as the scenario provider answers, in order.
 * Returns the frames held, in arrival order, with the provider ids (their
 * handshake names) the reference host gives them.
 */
export function askAll(b: HostTranscriptBuilder, name: ScenarioName, providers: number): Held[] {
  b.scenario(name, { providers });
  const held: Held[] = [];
  for (let i = 0; i < providers; i++) {
    const { ack, frames } = servedBy(name, i);
    b.provider(i)
      .handshake(ack)
      .send(query())
      .answer({ type: "frames", result: { frames, truncated: false } });
    held.push(...frames.map((frame) => ({ provider_id: providerName(ack)!, frame })));
  }
  return held;
}

/** The reference host's block for these frames. */
export const block = (held: Held[]): string => honestHost.compose.call(honestHost, held);

/** The reference host's usage report for these frames, as one round per provider id. */
export function report(held: Held[], change: (r: Obj) => Obj = (r) => r): Obj {
  const byProvider = new Map<string, Obj[]>();
  for (const h of held) byProvider.set(h.provider_id, [...(byProvider.get(h.provider_id) ?? []), h.frame]);
  const rounds = [...byProvider].map(([name, frames]) => ({ ack: { provider: { name } }, queried: true, frames, rejected: 0 }));
  return change(honestHost.usageReport.call(honestHost, rounds, "2026-11-30T00:00:00Z"));
}

/** The shutdowns and the host's exit, after a scenario's exchanges. */
export function finish(b: HostTranscriptBuilder, providers: number): HostTranscriptBuilder {
  for (let i = 0; i < providers; i++) b.provider(i).send({ type: "shutdown" });
  return b.end({ code: 0 });
}

/**
 * A one-provider scenario as a host of `turns` queries has it: each query
 * answered as the scenario provider answers, and after each the block
 * `compose` makes of that answer's frames (none where it gives undefined),
 * then shutdown and exit 0.
 */
export function turns(
  b: HostTranscriptBuilder,
  name: ScenarioName,
  compose: (held: Held[], turn: number) => string | undefined = (held) => block(held),
  count = 1,
): HostTranscriptBuilder {
  const { ack, frames } = servedBy(name, 0);
  b.scenario(name).handshake(ack);
  const blocks: string[] = [];
  for (let i = 0; i < count; i++) {
    b.send(query()).answer({ type: "frames", result: { frames, truncated: false } });
    const text = compose(
      frames.map((frame) => ({ provider_id: providerName(ack)!, frame })),
      i,
    );
    if (text !== undefined) blocks.push(text);
  }
  b.send({ type: "shutdown" }).end({ code: 0 });
  for (const text of blocks) b.context(text);
  return b;
}
