import { merkleRoot } from "../src/math/attest.ts";
import { defineMode } from "./mode.ts";

/** Breaks F12: the root is taken "in canonical order", not in the order frames are returned. */
export default defineMode({
  name: "F12-arrival-order",
  defect: "signs the root over the frames in the order it returns them (and sends no inclusion proofs)",
  expectFail: ["F12"],
  finding: { code: "F12.wrong-root", params: { diagnosis: "arrival-order" } },
  apply: () => ({
    resultRoot(frames) {
      return merkleRoot(frames.map((f) => this.commit(f)));
    },
    inclusion: () => undefined,
  }),
});
