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
  finding: /holds the line "<\/frame>" as it was served, and "<\/frame>" is the line the host ends that frame with/,
  apply: (honest) => ({
    renderFrame(held) {
      const raw = typeof held.frame.content === "string" ? held.frame.content : "";
      // The honest fence around a stand-in, the content put back in its place untouched.
      return honest.renderFrame.call(this, { ...held, frame: { ...held.frame, content: "\u0000" } }).replace("\u0000", () => raw);
    },
  }),
});
