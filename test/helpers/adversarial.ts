/**
 * Canned quoted-benign, quoted-hostile, budget-breaker and
 * unverifiable-attestation scenarios for host-check tests: the scenario
 * providers' own acks and whole answers (src/reference/adversarial.ts), recorded
 * as a host that asked each one query would have them.
 */
import { honestHost, type Held, type RefHost } from "../../src/reference/host.ts";
import { scenario } from "../../src/reference/scenarios.ts";
import { providerName } from "../../src/protocol/caps.ts";
import type { Obj } from "../../src/protocol/envelope.ts";
import type { ScenarioName } from "../../src/protocol/host-scenarios.ts";
import type { HostTranscriptBuilder } from "./host-transcript.ts";

const SECRETS = { token: "canned-token-0123456789", nonce: "c0ffee00" };
export const Q = { goal: "g", kinds: [], max_frames: 8, max_tokens: 4000 };

export interface Served {
  ack: Obj;
  answer: Obj;
  held: Held[];
}

/** What provider `index` of a scenario answers one query with: its ack, its whole answer, and the frames as held. */
export function served(name: ScenarioName, index: number, q: Obj = Q): Served {
  const p = scenario(name, SECRETS, index).provider;
  const [answer] = p.onQuery({ type: "query", query: q });
  const ack = p.ack();
  const frames = answer!.type === "frames" ? (((answer!.result as Obj).frames as Obj[]) ?? []) : [];
  return { ack, answer: answer!, held: frames.map((frame) => ({ provider_id: providerName(ack)!, frame })) };
}

/** Add a scenario: each provider handshaken, asked `q` and answered as the scenario provider answers; returns what each served. */
export function serveAll(b: HostTranscriptBuilder, name: ScenarioName, providers = 1, q: Obj = Q): Served[] {
  b.scenario(name, providers > 1 ? { providers } : {});
  return Array.from({ length: providers }, (_, i) => {
    const s = served(name, i, q);
    if (providers > 1) b.provider(i);
    b.handshake(s.ack).send({ type: "query", query: q }).answer(s.answer);
    return s;
  });
}

/** The shutdowns and the host's exit, after a scenario's exchanges. */
export function end(b: HostTranscriptBuilder, providers = 1, code = 0): HostTranscriptBuilder {
  for (let i = 0; i < providers; i++) {
    if (providers > 1) b.provider(i);
    b.send({ type: "shutdown" });
  }
  return b.end({ code });
}

/** The reference host's block for these frames, with some of its behaviours replaced. */
export const blockOf = (held: Held[], change: Partial<RefHost> = {}): string => {
  const h: RefHost = { ...honestHost, ...change };
  return h.compose.call(h, held);
};
