/**
 * Defect: writes each frame's content into its fence as served, neutralising nothing.
 * Breaks R3: "A host MUST treat frame content as untrusted data — delimited as quoted material, never executed as
 * instructions."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "R3-raw-content",
  defect: "fences each frame's content as served: a </frame> line in it closes the fence, and what follows reads as the host's own text",
  expectFail: ["host:R3"],
  finding: { code: "host:R3.closes-own-quotation", params: { line: "</frame>", closer: "</frame>", whose: "own" } },
  apply: (honest) => ({
    renderFrame(held) {
      const raw = typeof held.frame.content === "string" ? held.frame.content : "";
      // The honest fence around a stand-in, the content put back in its place untouched.
      return honest.renderFrame.call(this, { ...held, frame: { ...held.frame, content: "\u0000" } }).replace("\u0000", () => raw);
    },
  }),
});
