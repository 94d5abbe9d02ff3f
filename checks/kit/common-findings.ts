/**
 * The findings every check can make, whatever its rule: what its kit
 * helpers report (the frames that kept a rule, a query left unanswered, a
 * schema violation of a field it owns) and what the evaluator reports (a
 * stimulus lost, a scoring defect, nothing observed). Their codes are
 * qualified with the check's id like its own (F2.held, B3.not-observed).
 */
import { counted } from "../../src/verdict/words.ts";
import { findings } from "./findings.ts";

export const common = findings({
  /** A rule read over every served frame: how many kept it. */
  held: { ok: true, says: (p: { held: number; judged: number; rule: string }) => `${p.held} of ${counted(p.judged, "frame")} ${p.rule}` },
  /** A query that got no answer at all: what it was to show is not observed. */
  unanswered: {
    untestable: true,
    says: (p: { line: number; probe: string; step: string; why: string }) =>
      `query sent at line ${p.line} (probe ${p.probe}, step ${p.step}) got no frames or error reply: ${p.why}`,
  },
  /** The envelope schema, at a field the check owns: a wire shape of §1, so a violation fails whatever the owning check's level. */
  schema: {
    basis: "the schema's members, types and enums",
    apart: (p: SchemaParams) => schemaShape(p),
    says: (p: SchemaParams) => schemaWords(p),
    actual: (p: SchemaParams) => p.actual ?? undefined,
  },
  /** A stimulus whose precondition broke (the peer died, wedged, never acked, or a probe did not run). */
  "not-observed": { untestable: true, says: (p: { why: string }) => p.why },
  /** A probe that recorded no stimulus where the rule needs one. */
  "not-sent": { untestable: true, says: (p: { probe: string; what: string }) => `probe ${p.probe} recorded no ${p.what}, so the rule could not be observed` },
  /** The check threw: cgp-conform's defect, never the peer's. */
  "scoring-defect": {
    untestable: true,
    says: (p: { of: string; error: string }) =>
      `the check could not score what the ${p.of} sent (${p.error}); this is a defect of cgp-conform's, please report it with the transcript`,
  },
  /** A score with no evidence and no reason to skip: never a vacuous pass. */
  "observed-nothing": { untestable: true, says: () => "the check observed nothing it could judge, and gave no reason to skip" },
});

export interface SchemaParams {
  [k: string]: string | number | null;
  type: string;
  line: number;
  probe: string;
  pointer: string;
  error: string;
  keyword: string;
  schema_path: string;
  actual: string | null;
}

/** One schema rule broken the same way: the rule, and the error with its numbers (indices, limits seen) blanked. */
function schemaShape(p: SchemaParams): string[] {
  return [p.type, p.schema_path, p.pointer.replace(/\d+/g, "#"), p.error.replace(/\d+/g, "#")];
}

function schemaWords(p: SchemaParams): string {
  return `${p.type} envelope at line ${p.line} (probe ${p.probe}): ${p.pointer === "" ? "(the envelope)" : p.pointer} ${p.error} [schema ${p.schema_path}]`;
}
