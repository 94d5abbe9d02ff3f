import { closest, distance } from "fastest-levenshtein";
import { renderGithub } from "./github.ts";
import { renderHtml } from "./html/index.ts";
import { renderJunit } from "./junit.ts";
import { renderMarkdown } from "./markdown.ts";
import type { RunReport } from "../verdict/report.ts";
import { renderTap } from "./tap.ts";
import type { Transcript } from "../transcript/types.ts";

/** Machine-readable report formats, besides the human one. */
export const FORMATS = ["json", "junit", "tap", "markdown", "github", "html"] as const;
export type Format = (typeof FORMATS)[number];

export interface ReportSpec {
  format: Format;
  /** Where to write it; absent: standard output. */
  file?: string;
}

export function isFormat(s: string): s is Format {
  return (FORMATS as readonly string[]).includes(s);
}

/**
 * Parse `FORMAT[:FILE]` specs. Only the first `:` separates, so a FILE may hold
 * more (`junit:C:\out.xml`). Throws on an unknown format, an empty FILE, two
 * reports to one FILE, or more than one report to standard output (they would
 * interleave into something no reader can parse).
 */
export function parseReportSpecs(specs: string[]): ReportSpec[] {
  const out: ReportSpec[] = [];
  const files = new Set<string>();
  let toStdout: string | undefined;
  for (const spec of specs) {
    const colon = spec.indexOf(":");
    const name = colon === -1 ? spec : spec.slice(0, colon);
    if (!isFormat(name)) {
      const near = name === "" ? undefined : closest(name.toLowerCase(), [...FORMATS]);
      // Two edits away is a typo of a longer name; of a three-letter one (xml, html) it is another word.
      const d = near === undefined ? Number.POSITIVE_INFINITY : distance(name.toLowerCase(), near);
      const hint = d <= (name.length >= 4 ? 2 : 1) ? ` (did you mean ${near}?)` : "";
      const shown = name === "" ? `an empty format in report spec ${JSON.stringify(spec)}` : `unknown report format ${JSON.stringify(name)}${hint}`;
      throw new Error(`${shown}: expected FORMAT[:FILE] with FORMAT one of ${FORMATS.join(", ")}`);
    }
    if (colon === -1) {
      if (toStdout !== undefined)
        throw new Error(`only one report can go to standard output, but both ${toStdout} and ${name} would: give one a file, as ${name}:FILE`);
      toStdout = name;
      out.push({ format: name });
      continue;
    }
    const file = spec.slice(colon + 1);
    if (file.trim() === "")
      throw new Error(`report spec ${JSON.stringify(spec)} has an empty file name: give FORMAT:FILE, or FORMAT alone for standard output`);
    if (files.has(file)) throw new Error(`two reports would be written to the same file ${JSON.stringify(file)}`);
    files.add(file);
    out.push({ format: name, file });
  }
  return out;
}

/** What a format may use besides the report: the transcript it was scored from, when the caller has it (html links cited lines to it). */
export interface RenderContext {
  transcript?: Transcript;
}

export function render(format: Format, r: RunReport, ctx: RenderContext = {}): string {
  switch (format) {
    case "json":
      return JSON.stringify(r, null, 2) + "\n";
    case "junit":
      return renderJunit(r);
    case "tap":
      return renderTap(r);
    case "markdown":
      return renderMarkdown(r);
    case "github":
      return renderGithub(r);
    case "html":
      return renderHtml(r, ctx.transcript);
  }
}
