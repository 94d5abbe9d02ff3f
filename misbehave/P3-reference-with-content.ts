import { NAME } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";

/** Breaks P3: a reference frame "MUST NOT carry content (not even \"\")". */
export default defineMode({
  name: "P3-reference-with-content",
  defect: 'advertises the reference representation and serves reference frames with content ""',
  expectFail: ["P3"],
  finding: { code: "P3.misshaped", params: { extra: ["content"] } },
  apply: (honest) => ({
    ack() {
      const ack = honest.ack.call(this);
      return { ...ack, capabilities: { ...(ack.capabilities as object), representations: ["full", "compact", "reference"] } };
    },
    represent(doc, q) {
      if (q.representation_preferences[0] !== "reference") return honest.represent.call(this, doc, q);
      const { content_digest: _d, provenance: _p, relations: _r, ...full } = honest.frame.call(this, doc);
      return {
        ...full,
        id: `${doc.id}#ref`,
        representation: "reference",
        content: "",
        canonical_content_hash: this.digest(this.content(doc)),
        content_ref: { provider_id: NAME, uri: `contextgraph-ref://${NAME}/${doc.id}` },
        token_cost: 0,
      };
    },
  }),
});
