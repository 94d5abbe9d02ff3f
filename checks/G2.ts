import { fullFormats } from "ajv-formats/dist/formats.js";
import { defineCheck } from "./kit/check.ts";
import { perRelation } from "./kit/relations.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/**
 * A URI in RFC 3986's sense (ajv-formats' `uri`, its full grammar): a scheme,
 * then the rest, percent-escapes well-formed. A relative reference is not one,
 * nor is an IRI with characters outside ASCII (they must be percent-encoded).
 * RFC 3986 also lets the rest be empty (`x:`, path-empty), which that grammar
 * refuses: it is a URI, so it is accepted here.
 */
function isUri(v: unknown): boolean {
  return typeof v === "string" && ((fullFormats.uri as (s: string) => boolean)(v) || /^[A-Za-z][A-Za-z0-9+.-]*:$/.test(v));
}

/**
 * @anchor G2
 * Stimulus: every relation of every frame served to probes sample-query and budget-squeeze.
 */
export default defineCheck({
  id: "G2",
  title: "Every relation's target_uri is a URI",
  level: "MUST",
  requirement: "target_uri MUST be a non-empty URI.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score({ probe }) {
    const r = perRelation([probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)], (rel, where, line) =>
      isUri(rel.target_uri)
        ? { ok: true, message: "every relation target_uri is a URI", lines: [line] }
        : {
            ok: false,
            message: `${where} has target_uri ${show(rel.target_uri)}, which is not a URI (no scheme, empty, or unparseable)`,
            expected: "an absolute URI, e.g. file:///repo/src/net.rs#retry",
            actual: show(rel.target_uri),
            lines: [line],
          },
    );
    return r;
  },
});
