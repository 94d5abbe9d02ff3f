import { DOCS } from "../fixtures/corpus.ts";
import { defineMode } from "./mode.ts";

/** Breaks V1: "No frame body travels in either direction." */
export default defineMode({
  name: "V1-body-in-verdict",
  defect: "attaches the frame's content to each verdict",
  expectFail: ["V1"],
  finding: /a verdict in reply to verify-\S+ carries content: a body travelled/,
  apply: (honest) => ({
    verdict(identity) {
      const doc = DOCS.find((d) => d.id === identity.frame_id);
      return { ...honest.verdict.call(this, identity), content: doc ? this.content(doc) : "" };
    },
  }),
});
