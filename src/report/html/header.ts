import type { RunReport } from "../../verdict/report.ts";
import { verdictWords } from "../verdict-words.ts";
import { policyOf, protocolOf, targetLine, targetOf } from "../describe.ts";
import { count, cutBytes, escapeText, plural } from "./text.ts";

/** The top of the page: the verdict, what was run and how, and the tallies. */

const VERDICT_CLASS = { CONFORMANT: "v-ok", "NOT CONFORMANT": "v-fail", "COULD NOT RUN": "v-cnr" } as const;

/** The page title's text, as markup: the verdict and the target. */
export function titleHtml(r: RunReport): string {
  return `cgp-conform: ${escapeText(verdictWords(r))} · ${escapeText(cutBytes(targetOf(r.target), 200).text)}`;
}

/** The verdict banner, with why the run could not be made when it could not. */
export function verdictHtml(r: RunReport): string {
  const verdict = verdictWords(r);
  const reason = r.could_not_run ? `<p class="why-not">${escapeText(r.could_not_run_reason ?? "the run could not be made in full")}</p>` : "";
  return `<header class="verdict ${VERDICT_CLASS[verdict]}"><p class="tool">cgp-conform conformance report</p><h1>${escapeText(verdict)}</h1>${reason}</header>`;
}

export function metaHtml(r: RunReport): string {
  const items: Array<[string, string]> = [
    ["Target", escapeText(targetLine(r.target))],
    ["Tool", `cgp-conform ${escapeText(r.tool.version)}`],
    ["Protocol", escapeText(protocolOf(r))],
    ["Timeout", `${count(r.timeout_ms)} ms per exchange`],
  ];
  items.push(["Run started", `${escapeText(r.started_at)}${r.duration_ms !== undefined ? `, ${count(r.duration_ms)} ms with the provider` : ""}`]);
  if (r.exploration) items.push(["Exploration", `depth ${escapeText(r.exploration.depth)}, ${plural(r.exploration.exchanges, "line")} sent`]);
  const policy = policyOf(r);
  if (policy) items.push(["Policy", escapeText(policy)]);
  if (r.consent.needed.length > 0) {
    const list = (xs: string[]): string => escapeText(xs.join(", ") || "none");
    items.push(["Consent", `needed: ${list(r.consent.needed)} · granted: ${list(r.consent.granted)} · missing: ${list(r.consent.missing)}`]);
  }
  return `<dl class="meta">${items.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl>`;
}

export function summaryHtml(r: RunReport): string {
  const s = r.summary;
  const tiles: Array<[string, number, string]> = [
    ["checks", s.total, "total"],
    ["pass", s.pass, "s-pass"],
    ["fail", s.fail, "s-fail"],
    ...(s.unobserved > 0 ? [["not observed", s.unobserved, "s-unobserved"] as [string, number, string]] : []),
    ["warn", s.warn, "s-warn"],
    ["info", s.info, "s-info"],
    ["skip", s.skip, "s-skip"],
  ];
  return `<ul class="summary">${tiles.map(([k, n, cls]) => `<li class="${cls}"><span class="count">${n}</span> <span class="what">${k}</span></li>`).join("")}</ul>`;
}
