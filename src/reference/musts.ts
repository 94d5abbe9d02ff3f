/**
 * The providers of the scenarios that reach host MUSTs of their own:
 *
 * - reference-unresolvable (protocol-surface §6.4): three frames alike in
 *   kind, size and score, the middle one (in canonical order) a reference
 *   frame with no content, whose content_ref names a handle no host can
 *   resolve. Every title, citation label and full content opens with a marker
 *   of its own (REFERENCE_MARKS) and is otherwise the same length in each
 *   frame, so a title written where a host writes a frame's content stands at
 *   the same distance from the frame's title as a full frame's content does.
 * - incompatible-version (§10): every handshake answered with
 *   incompatible_version, as a provider of another major family answers it.
 * - unknown-envelope-type (§2): lock-step, acknowledging a later minor, with a
 *   notification of a type 1.0 does not define around each frames answer.
 */
import { budgetTokens } from "../math/budget.ts";
import { digestOfText } from "../math/digest.ts";
import type { Obj } from "../protocol/envelope.ts";
import {
  INCOMPATIBLE_VERSION,
  LATER_MINOR,
  REFERENCE_MARKS,
  REFERENCE_UNRESOLVABLE,
  UNKNOWN_ENVELOPE,
  UNKNOWN_ENVELOPE_TYPE,
} from "../protocol/host-scenarios.ts";
import { marked } from "./marked.ts";
import { error, honest, servingQueries, type Provider } from "./provider.ts";

export const REFS = "cgp-conform-refs";

/** The frame of reference-unresolvable served as a reference. */
export const REFERENCE_ID = "fixture:ref-2";

const mark = (field: keyof typeof REFERENCE_MARKS, n: number): string => `cgpmark-${REFERENCE_MARKS[field]}-0${n}`;

const CONTENT = [
  "Deploys go out on Tuesdays, once the release checklist is signed.",
  "Hotfixes skip the queue, but never the review of a second person.",
  "A deploy that fails its smoke test is rolled back within the hour.",
];

/** The i-th frame (from 1): full, but the second, which is a reference whose content no host can obtain. */
function refFrame(n: number): Obj {
  const title = `${mark("title", n)} Deploy policy`;
  const base = {
    id: `fixture:ref-${n}`,
    kind: "doc",
    title,
    uri: `file:///cgp-conform/refs/ref-${n}`,
    score: 0.8,
    provenance: [],
    citation_label: `${mark("cite", n)} Deploy policy (${REFS})`,
    relations: [],
  };
  const content = `${mark("content", n)} ${CONTENT[n - 1]}`;
  if (`fixture:ref-${n}` !== REFERENCE_ID) return { ...base, content, content_digest: digestOfText(content), token_cost: budgetTokens(content) };
  // The full source is never served, so its hash names bytes no host has seen; the handle names nothing (1.0 has no resolve operation).
  return {
    ...base,
    representation: "reference",
    content_ref: { provider_id: REFS, uri: `cgp-conform-unresolvable://refs/ref-${n}` },
    canonical_content_hash: digestOfText(`the full source of ${REFERENCE_ID}, never served (${content})`),
    token_cost: 0,
  };
}

const REF_FRAMES = [1, 2, 3].map(refFrame);

/** The behaviours of one of these scenarios' providers over the scenario's base ack, or undefined for any other scenario. */
export function mustsBehaviour(name: string, index: number, base: (p: Provider) => Obj): (Partial<Provider> & ThisType<Provider>) | undefined {
  if (index !== 0) return undefined;
  switch (name) {
    case REFERENCE_UNRESOLVABLE.name:
      return {
        ack() {
          const ack = base(this);
          return {
            ...ack,
            provider: { ...(ack.provider as Obj), name: REFS },
            capabilities: { ...(ack.capabilities as Obj), representations: ["full", "reference"], resolve: true },
          };
        },
        onQuery: servingQueries((q) => {
          const frames = REF_FRAMES.filter((f) => q.kinds.length === 0 || q.kinds.includes(f.kind as string)).slice(0, q.max_frames);
          let spent = 0;
          const kept = frames.filter((f) => (spent += f.token_cost as number) <= q.max_tokens);
          return { frames: kept, truncated: kept.length < REF_FRAMES.length };
        }),
      };
    case INCOMPATIBLE_VERSION.name:
      return {
        onHandshake(env) {
          return [
            error(env, "incompatible_version", `this provider speaks contextgraph/2 only; ${JSON.stringify(env.protocol_version)} is not in that family`),
          ];
        },
      };
    case UNKNOWN_ENVELOPE_TYPE.name:
      return {
        ...marked(),
        ack() {
          return { ...base(this), protocol_version: LATER_MINOR };
        },
        onQuery(env) {
          const out = honest.onQuery.call(this, env);
          if (!out.some((e) => e.type === "frames")) return out;
          const note = (when: string): Obj => ({ type: UNKNOWN_ENVELOPE, note: `a notification of ${LATER_MINOR}, ${when} the answer`, frame_ids: [] });
          return [note("before"), ...out, note("after")];
        },
      };
    default:
      return undefined;
  }
}
