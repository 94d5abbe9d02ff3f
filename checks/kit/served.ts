/**
 * What a scenario's providers served, frame by frame, and how a host's own
 * files name them: the frames a usage report must reference and a context
 * block composes. Pure, like the checks.
 */
import { compareIdentity, type FrameIdentity } from "../../src/math/attest.ts";
import { providerName } from "../../src/protocol/caps.ts";
import { isObj, type Obj } from "../../src/protocol/envelope.ts";
import { markersIn } from "../../src/protocol/host-scenarios.ts";
import type { HostView } from "../../src/transcript/host.ts";
import { show } from "./show.ts";

/** One frame a scenario provider served. */
export interface ServedFrame {
  /** Which of the scenario's providers (0: the first). */
  provider: number;
  /** That provider's view: its name in words ("compose ({provider2})"), its lines. */
  view: HostView;
  /** Its handshake provider.name, the provider id of its frames' identities (§6.5.2). */
  name: string | undefined;
  frame: Obj;
  frameId: string;
  /** The content_digest it carried, if a string. */
  digest: string | undefined;
  /** The line of the answer that carried it. */
  n: number;
}

/** Every frame every provider of a scenario served, in the order their answers came. */
export function servedFrames(v: HostView): ServedFrame[] {
  return v.providers().flatMap((p, provider) => {
    const name = providerName(p.ack()?.env);
    return p.answered("frames").flatMap(({ n, env }) => {
      const result = isObj(env.result) ? env.result : {};
      const frames = Array.isArray(result.frames) ? result.frames.filter(isObj) : [];
      return frames.map((frame) => ({
        provider,
        view: p,
        name,
        frame,
        frameId: String(frame.id),
        digest: typeof frame.content_digest === "string" ? frame.content_digest : undefined,
        n,
      }));
    });
  });
}

/** A served frame as a finding's param: its id, whether it bore a content_digest, and whose it is (name null: its provider named none). */
export type ServedParam = { frame_id: string; digest: boolean; name: string | null; provider: number; line: number };
export const servedParam = (f: ServedFrame): ServedParam => ({
  frame_id: f.frameId,
  digest: f.digest !== undefined,
  name: f.name ?? null,
  provider: f.provider,
  line: f.n,
});

/** A served frame param in words: "fixture:shared (no content_digest) of cgp-conform-wiki". */
export function servedSaid(f: ServedParam): string {
  const digest = f.digest ? "" : " (no content_digest)";
  return `${show(f.frame_id, 60)}${digest} of ${f.name ?? `provider ${f.provider + 1}`}`;
}

/** A served frame in words: "fixture:shared (no content_digest) of cgp-conform-wiki". */
export function frameWords(f: ServedFrame): string {
  return servedSaid(servedParam(f));
}

/**
 * The frames of a scenario that a block can be searched for: each served
 * frame's content holds one marker (MARKER); a marker two different
 * identities share (the same content from two providers) tells them apart
 * nowhere, and is left out.
 */
export function markedFrames(served: readonly ServedFrame[]): Map<string, ServedFrame> {
  const by = new Map<string, ServedFrame[]>();
  for (const f of served) {
    const markers = typeof f.frame.content === "string" ? markersIn(f.frame.content) : [];
    if (markers.length !== 1) continue;
    const list = by.get(markers[0]!) ?? [];
    list.push(f);
    by.set(markers[0]!, list);
  }
  const out = new Map<string, ServedFrame>();
  for (const [m, list] of by) {
    const same = list.every((f) => f.provider === list[0]!.provider && f.frameId === list[0]!.frameId && f.digest === list[0]!.digest);
    if (same) out.set(m, list[0]!);
  }
  return out;
}

/** A FrameId as a report writes it: content_digest absent, or null (serde's None), is no digest. */
export interface FrameRef {
  provider_id: string;
  frame_id: string;
  content_digest?: string;
}

/** A served_frames[].frame as a FrameId, or why it is none. */
export function asFrameRef(v: unknown): FrameRef | string {
  if (!isObj(v)) return "it has no frame object";
  if (typeof v.provider_id !== "string") return "its frame has no string provider_id";
  if (typeof v.frame_id !== "string") return "its frame has no string frame_id";
  if (v.content_digest !== undefined && v.content_digest !== null && typeof v.content_digest !== "string")
    return "its frame's content_digest is neither a string nor absent";
  return {
    provider_id: v.provider_id,
    frame_id: v.frame_id,
    ...(typeof v.content_digest === "string" ? { content_digest: v.content_digest } : {}),
  };
}

/**
 * A usage report's served_frames entry as a FrameId, or why it is none. The
 * triple binds, its JSON shape does not (no keyword gives one): nested, as
 * `{ frame: { provider_id, frame_id, content_digest }, token_cost }`, or flat,
 * as `{ provider_id, frame_id, content_digest, token_cost }`.
 */
export function servedFrameRef(sf: unknown): FrameRef | string {
  if (!isObj(sf)) return "it is not an object";
  if (sf.frame === undefined && sf.provider_id === undefined && sf.frame_id === undefined)
    return "it has no FrameId: no frame object, and no provider_id and frame_id of its own";
  if (sf.frame !== undefined) return asFrameRef(sf.frame);
  const flat = asFrameRef(sf);
  return typeof flat === "string" ? flat.replace(/^its frame('s)? /, (_, s: string | undefined) => (s ? "its " : "it ")) : flat;
}

/** The served frames a FrameId can name: by the provider whose handshake name is its provider id, or, where it is none's (a host's own routing key), by any. */
export function candidates(ref: FrameRef, served: readonly ServedFrame[]): ServedFrame[] {
  const named = served.some((f) => f.name === ref.provider_id);
  return served.filter((f) => (!named || f.name === ref.provider_id) && f.frameId === ref.frame_id && f.digest === ref.content_digest);
}

/** The usage reports of a scenario: its {usage} lines that are JSON objects. */
export function reports(v: HostView): Array<{ n: number; report: Obj }> {
  return v
    .usage()
    .filter((l): l is typeof l & { value: Obj } => isObj(l.value))
    .map((l) => ({ n: l.n, report: l.value }));
}

/**
 * The provider id the host gives each of a scenario's providers, as its usage
 * reports show it: a served frame's FrameId names it, and that frame tells
 * which provider it is of. Only providers every reference agrees on.
 */
export function hostProviderIds(v: HostView, served: readonly ServedFrame[]): Map<number, string> {
  const seen = new Map<number, Set<string>>();
  for (const { report } of reports(v)) {
    const providers = Array.isArray(report.providers) ? report.providers.filter(isObj) : [];
    for (const p of providers) {
      for (const sf of Array.isArray(p.served_frames) ? p.served_frames.filter(isObj) : []) {
        const ref = servedFrameRef(sf);
        if (typeof ref === "string") continue;
        const of = new Set(candidates(ref, served).map((f) => f.provider));
        if (of.size !== 1) continue;
        const i = [...of][0]!;
        const ids = seen.get(i) ?? new Set<string>();
        ids.add(ref.provider_id);
        seen.set(i, ids);
      }
    }
  }
  const out = new Map<number, string>();
  for (const [i, ids] of seen) if (ids.size === 1) out.set(i, [...ids][0]!);
  return out;
}

/** A served frame's identity, with the provider id given (the host's, or the handshake name). */
export function identityWith(f: ServedFrame, providerId: string): FrameIdentity {
  return { provider_id: providerId, frame_id: f.frameId, ...(f.digest !== undefined ? { content_digest: f.digest } : {}) };
}

export { compareIdentity };
