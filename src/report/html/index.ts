import type { RunReport } from "../../verdict/report.ts";
import type { Transcript } from "../../transcript/types.ts";
import { citedLines, groupsHtml, showChecks } from "./evidence.ts";
import { metaHtml, summaryHtml, titleHtml, verdictHtml } from "./header.ts";
import { page } from "./template.ts";
import { embed, Lines, transcriptHtml } from "./transcript.ts";

/**
 * One self-contained HTML page of a run, to hand over: the verdict, the
 * target, the tallies, then every check (failures first) with the rule it
 * enforces and its evidence, passing and skipped checks folded; and, when the
 * transcript is given, its lines, numbered and anchored (`id="L12"`), so every
 * line a finding cites is a link to it.
 *
 * Nothing is loaded from anywhere: the CSS is inline, there is no script, and
 * a Content-Security-Policy forbids everything but that inline style. Every
 * string is escaped; the markup is well-formed XML too, so an XML parser can
 * read the page.
 *
 * The page stays a few MB whatever the provider sent: each transcript line is
 * cut to LINE_MAX_BYTES, at most TRANSCRIPT_MAX_LINES lines and
 * TRANSCRIPT_MAX_BYTES of them are embedded (cited lines first, then their
 * neighbours, then the rest in order), and the evidence shown is capped the
 * same way. Whatever is cut or left out is said where it was.
 */

export { EVIDENCE_MAX_BYTES, FINDINGS_MAX, LINKS_MAX } from "./evidence.ts";
export { checkAnchor, cutBytes, escapeText, LINE_MAX_BYTES } from "./text.ts";
export { TRANSCRIPT_MAX_BYTES, TRANSCRIPT_MAX_LINES } from "./transcript.ts";

export function renderHtml(r: RunReport, transcript?: Transcript): string {
  const shown = showChecks(r.results);
  const lines = transcript ? new Lines(transcript) : undefined;
  const embedded = lines
    ? embed(
        lines,
        citedLines(shown, (n) => lines.has(n)),
      )
    : undefined;
  const linked = (n: number): boolean => embedded?.rows.has(n) ?? false;
  return page(titleHtml(r), verdictHtml(r), [metaHtml(r), summaryHtml(r), ...groupsHtml(shown, linked), transcriptHtml(lines, embedded)]);
}
