/**
 * The reference host's composition (context-reuse §1, §2): the frames of a
 * query round, across every provider, rendered into one context block in
 * canonical FrameId order (provider id, frame id, content_digest, absent
 * first), identical identities once, score and token_cost never rendered,
 * each frame's kind shown as served (U2), each frame's content fenced as
 * quoted material with the fence's own delimiter neutralised inside it (R3);
 * and the round's usage report, every accepted frame itemised by FrameId
 * and the totals summed from them.
 */
import { compareIdentity } from "../math/attest.ts";
import { providerName } from "../protocol/caps.ts";
import type { Obj } from "../protocol/envelope.ts";
import { BLOCK_HEADER, BUDGET, type Behaviours } from "./host-contract.ts";

/** A value in a fence's attribute: it cannot end the attribute or the tag. */
function attributeText(v: string): string {
  return v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
}

/**
 * A frame's content inside its fence: a `<frame` or `</frame` in it loses its
 * `<`, so content can neither close the fence that quotes it nor open a
 * sibling (R3). Escaping, not a random delimiter: the block stays byte-stable
 * across turns (context-reuse §1).
 */
function quotedText(content: unknown): string {
  return typeof content === "string" ? content.replace(/<(\/?frame)/gi, "&lt;$1") : "";
}

export const block: Behaviours<"frameId" | "order" | "attributes" | "renderFrame" | "compose" | "usageReport"> = {
  frameId({ provider_id, frame }) {
    return { provider_id, frame_id: String(frame.id), ...(typeof frame.content_digest === "string" ? { content_digest: frame.content_digest } : {}) };
  },

  order(held) {
    const sorted = [...held].sort((a, b) => compareIdentity(this.frameId(a), this.frameId(b)));
    // D2: two frames with the same identity are the same content, rendered once.
    return sorted.filter((h, i) => i === 0 || compareIdentity(this.frameId(sorted[i - 1]!), this.frameId(h)) !== 0);
  },

  attributes(held) {
    const id = this.frameId(held);
    return [
      ["provider", id.provider_id],
      ["id", id.frame_id],
      ...(typeof id.content_digest === "string" ? [["digest", id.content_digest] as [string, string]] : []),
      // The kind as served, an unknown one too (U2: a frame re-emitted keeps its kind string verbatim).
      ["kind", typeof held.frame.kind === "string" ? held.frame.kind : ""],
      ["title", typeof held.frame.title === "string" ? held.frame.title : ""],
      ["cite", typeof held.frame.citation_label === "string" ? held.frame.citation_label : ""],
    ];
  },

  renderFrame(held) {
    const attrs = this.attributes(held)
      .map(([k, v]) => `${k}="${attributeText(v)}"`)
      .join(" ");
    return `<frame ${attrs}>\n${quotedText(held.frame.content)}\n</frame>`;
  },

  compose(held) {
    return [BLOCK_HEADER, ...this.order(held).map((h) => this.renderFrame(h))].join("\n") + "\n";
  },

  usageReport(rounds, asOf) {
    const cost = (f: Obj): number => (Number.isInteger(f.token_cost) && (f.token_cost as number) >= 0 ? (f.token_cost as number) : 0);
    const providers = rounds.map((r) => {
      const provider_id = providerName(r.ack) ?? "(unnamed)";
      const served_frames = r.frames.map((frame) => ({ frame: this.frameId({ provider_id, frame }), token_cost: cost(frame) }));
      return {
        provider_id,
        frames_served: served_frames.length,
        frames_rejected: r.rejected,
        token_cost: served_frames.reduce((a, f) => a + f.token_cost, 0),
        served_frames,
      };
    });
    return { budget_requested: BUDGET, budget_consumed: providers.reduce((a, p) => a + p.token_cost, 0), as_of: asOf, providers };
  },
};
