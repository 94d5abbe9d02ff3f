/** The spec texts, by the name coverage and citations name them with (copies in test/published/). */
export const SPEC_TEXTS = ["protocol-surface", "context-reuse", "representations-change"] as const;
export type SpecText = (typeof SPEC_TEXTS)[number];
