import { DOCS } from "../src/reference/corpus.ts";
import { defineMode } from "./mode.ts";

/** Breaks V4: "a digest never a body" (context-reuse: "Neither a verify request nor its response MAY carry frame bodies"). */
export default defineMode({
  name: "V4-body-in-verdict",
  defect: "attaches the frame's content to each verdict",
  expectFail: ["V4"],
  finding: { code: "V4.body-carried", params: { carried: ["content"] } },
  apply: (honest) => ({
    verdict(identity) {
      const doc = DOCS.find((d) => d.id === identity.frame_id);
      return { ...honest.verdict.call(this, identity), content: doc ? this.content(doc) : "" };
    },
  }),
});
