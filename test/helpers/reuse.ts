/**
 * Canned runs of the reuse scenario for host-check tests: the scenario
 * provider's own ack, answers and verdicts (src/reference/reuse.ts), recorded as a
 * host that queried, verified and queried again would have them, and the
 * blocks a test composes from what it holds.
 */
import { scenario } from "../../src/reference/scenarios.ts";
import type { Obj } from "../../src/protocol/envelope.ts";
import { providerName } from "../../src/protocol/caps.ts";
import { hostTx, query, type HostTranscriptBuilder } from "./host-transcript.ts";

const SECRETS = { token: "canned-token-0123456789", nonce: "c0ffee00" };
const Q = { goal: "g", kinds: [], max_frames: 8, max_tokens: 4000 };

/** What a host holds in reuse: the first answer's frames, the verdicts its verify got, the second answer's frames. */
export interface Held {
  first: Obj[];
  verdicts: Obj[];
  second: Obj[];
}

export interface ReuseRun {
  /** The identities the verify asks about, of the first answer's frames; absent: no verify. Default: the digest-bearing ones. */
  verify?: ((first: Obj[]) => Obj[]) | false;
  /** Query again after the verify; "first" answers it with the first answer again (a host that started its provider afresh). */
  requery?: boolean | "first";
  /** The verified answer's verdicts, changed. */
  verdicts?: (v: Obj[]) => Obj[];
  /** The frames of each block the host writes, in order (a string: the text itself). */
  blocks(h: Held): Array<Obj[] | string>;
}

/** A host's own plain rendering: a heading and the content of each frame. */
export const plain = (frames: Obj[]): string => frames.map((f) => `## ${String(f.id)}\n${String(f.content)}`).join("\n\n");

/** The frames of `list` with these ids. */
export const only = (list: Obj[], ...ids: string[]): Obj[] => list.filter((f) => ids.includes(String(f.id)));

/** The identities of frames, as a host keyed by the handshake name sends them. */
export const identities = (name: string, frames: Obj[]): Obj[] =>
  frames.filter((f) => typeof f.content_digest === "string").map((f) => ({ provider_id: name, frame_id: f.id, content_digest: f.content_digest }));

/** Add the reuse scenario to a builder, as run. */
export function reuse(b: HostTranscriptBuilder, run: ReuseRun): HostTranscriptBuilder {
  const p = scenario("reuse", SECRETS).provider;
  const ack = p.ack();
  const name = providerName(ack)!;
  b.scenario("reuse").handshake(ack);
  const [a] = p.onQuery({ type: "query", query: Q });
  b.send(query()).answer(a!);
  const first = ((a!.result as Obj).frames as Obj[]) ?? [];
  let verdicts: Obj[] = [];
  if (run.verify !== false) {
    const ids = run.verify ? run.verify(first) : identities(name, first);
    const [v] = p.onVerify({ type: "verify", request: { frames: ids } });
    verdicts = ((v!.response as Obj).verdicts as Obj[]) ?? [];
    if (run.verdicts) verdicts = run.verdicts(verdicts);
    b.send({ type: "verify", request: { frames: ids } }).answer({ type: "verified", response: { verdicts } });
  }
  let second: Obj[] = [];
  if (run.requery) {
    const answer = run.requery === "first" ? a! : p.onQuery({ type: "query", query: Q })[0]!;
    b.send(query()).answer(answer);
    second = ((answer.result as Obj).frames as Obj[]) ?? [];
  }
  b.send({ type: "shutdown" });
  for (const block of run.blocks({ first, verdicts, second })) b.context(typeof block === "string" ? block : plain(block));
  return b.end({ code: 0 });
}

/** The reuse scenario alone. */
export const reuseTx = (run: ReuseRun): HostTranscriptBuilder => reuse(hostTx(), run);

/** What an honest host composes: the first answer; then the frames verified valid, and the second answer, each identity once. */
export function honestBlocks(h: Held): Obj[][] {
  const valid = h.first.filter((f) => h.verdicts.some((v) => (v.frame as Obj).frame_id === f.id && v.status === "valid"));
  const seen = new Set<string>();
  const again = [...valid, ...h.second].filter((f) => {
    const key = `${String(f.id)} ${String(f.content_digest)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [h.first, again];
}
