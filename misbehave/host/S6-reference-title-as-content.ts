/**
 * Defect: a reference frame, which carries no content and which it cannot rehydrate (1.0 has no resolve operation),
 * is rendered with its title in place of the content it does not have, as a host that falls back to `content ??
 * title` does.
 * Breaks protocol-surface §6.4: "A host composing a reference frame it cannot rehydrate MUST treat its contribution
 * as empty rather than fabricating content."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "S6-reference-title-as-content",
  defect: "renders a reference frame it cannot rehydrate with its title where its content would go",
  expectFail: ["host:S6-reference"],
  finding: { code: "host:S6-reference.fabricated", params: { field: "title" } },
  apply: (honest) => ({
    renderFrame(held) {
      if (held.frame.representation !== "reference" || typeof held.frame.content === "string") return honest.renderFrame.call(this, held);
      return honest.renderFrame.call(this, { ...held, frame: { ...held.frame, content: held.frame.title } });
    },
  }),
});
