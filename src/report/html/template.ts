/**
 * The page around the parts: nothing is loaded from anywhere. The CSS is
 * inline, there is no script, and a Content-Security-Policy forbids
 * everything but that inline style.
 */

/** The whole document: `title` and every part are markup, escaped already. */
export function page(title: string, header: string, main: string[]): string {
  return (
    [
      "<!DOCTYPE html>",
      `<html lang="en">`,
      "<head>",
      `<meta charset="utf-8"/>`,
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"/>`,
      `<meta name="referrer" content="no-referrer"/>`,
      `<meta name="viewport" content="width=device-width, initial-scale=1"/>`,
      `<title>${title}</title>`,
      `<style>${CSS}</style>`,
      "</head>",
      "<body>",
      header,
      "<main>",
      ...main,
      "</main>",
      "</body>",
      "</html>",
    ].join("\n") + "\n"
  );
}

const CSS = `
:root { --fail: #b3261e; --unobserved: #6f42c1; --warn: #8a5300; --info: #0b5cad; --pass: #1d6f33; --skip: #5f6368; --line: #d0d7de; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; background: #fff; }
main { max-width: 1200px; margin: 0 auto; padding: 0 24px 48px; }
pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.verdict { padding: 20px 24px; color: #fff; }
.verdict > * { max-width: 1152px; margin-left: auto; margin-right: auto; }
.verdict h1 { margin-top: 0; margin-bottom: 0; font-size: 32px; letter-spacing: 0.02em; }
.verdict .tool { margin-top: 0; margin-bottom: 4px; opacity: 0.85; font-size: 13px; text-transform: uppercase; letter-spacing: 0.08em; }
.verdict .why-not { margin-top: 8px; margin-bottom: 0; font-size: 16px; overflow-wrap: anywhere; }
.v-ok { background: var(--pass); }
.v-fail { background: var(--fail); }
.v-cnr { background: #6e4c00; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 20px 0; }
.meta dt { color: #59636e; }
.meta dd { margin: 0; overflow-wrap: anywhere; }
.summary { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; padding: 0; margin: 0 0 24px; }
.summary li { border: 1px solid var(--line); border-radius: 6px; padding: 6px 14px; min-width: 84px; text-align: center; }
.summary .count { display: block; font-size: 22px; font-weight: 600; }
.summary .what { color: #59636e; font-size: 13px; }
.summary .s-fail .count { color: var(--fail); }
.summary .s-unobserved .count { color: var(--unobserved); }
.summary .s-warn .count { color: var(--warn); }
.summary .s-info .count { color: var(--info); }
.summary .s-pass .count { color: var(--pass); }
.summary .s-skip .count { color: var(--skip); }
h2 { font-size: 20px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h2 .n { color: #59636e; font-weight: normal; }
.check { border: 1px solid var(--line); border-left-width: 5px; border-radius: 6px; margin: 0 0 10px; background: #fff; }
.check.s-fail { border-left-color: var(--fail); }
.check.s-unobserved { border-left-color: var(--unobserved); }
.check.s-warn { border-left-color: var(--warn); }
.check.s-info { border-left-color: var(--info); }
.check.s-pass { border-left-color: var(--pass); }
.check.s-skip { border-left-color: var(--skip); }
.check h3 { margin: 0; padding: 10px 14px; font-size: 16px; background: var(--soft); border-bottom: 1px solid var(--line); }
.check summary { padding: 6px 14px; cursor: pointer; }
.check[open] summary { background: var(--soft); border-bottom: 1px solid var(--line); }
.check .body { padding: 10px 14px; }
.check:target { box-shadow: 0 0 0 3px #f2cc60; }
.cid { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 700; }
.level { display: inline-block; font-size: 11px; font-weight: 600; border: 1px solid currentColor; border-radius: 4px; padding: 0 4px; color: #59636e; vertical-align: 2px; }
.why { color: #59636e; font-size: 13px; }
.badge { display: inline-block; min-width: 44px; text-align: center; font-size: 11px; font-weight: 700; color: #fff; border-radius: 4px; padding: 1px 6px; vertical-align: 2px; text-transform: uppercase; }
.badge.s-fail { background: var(--fail); }
.badge.s-unobserved { background: var(--unobserved); }
.badge.s-warn { background: var(--warn); }
.badge.s-info { background: var(--info); }
.badge.s-pass { background: var(--pass); }
.badge.s-skip { background: var(--skip); }
.rule { margin: 0 0 10px; padding: 6px 12px; border-left: 3px solid var(--line); color: #3d444d; font-style: italic; overflow-wrap: anywhere; }
.findings { margin: 0; padding-left: 22px; }
.finding { margin: 0 0 10px; }
.fhead { margin-bottom: 2px; }
.msg { font-size: 13.5px; }
.fields { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 4px 0; }
.fields dt { color: #59636e; font-size: 13px; }
.fields dd { margin: 0; }
.fields pre, .also pre { background: var(--soft); padding: 1px 6px; border-radius: 4px; }
.occ { margin: 4px 0 2px; color: #59636e; font-size: 13px; }
.also { margin: 0; padding-left: 18px; font-size: 13px; }
.lines { margin: 4px 0 0; font-size: 13px; color: #59636e; }
.lines a { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.nolink { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.untestable-note { color: var(--unobserved); font-weight: 600; }
.reason, .none, .omitted { color: #59636e; }
.cut { color: var(--fail); font-style: italic; white-space: normal; }
.passing summary { color: #59636e; cursor: pointer; font-size: 13px; }
a { color: #0b5cad; }
.tnote { color: #59636e; }
.transcript { border-collapse: collapse; width: 100%; table-layout: fixed; }
.transcript th { text-align: left; font-size: 12px; color: #59636e; border-bottom: 1px solid var(--line); padding: 4px 6px; }
.transcript th:nth-child(1) { width: 56px; }
.transcript th:nth-child(2) { width: 170px; }
.transcript th:nth-child(3) { width: 96px; }
.transcript td { vertical-align: top; padding: 2px 6px; border-bottom: 1px solid #eef1f4; font-size: 13px; }
.transcript td.n { text-align: right; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.transcript td.n a { color: #59636e; text-decoration: none; }
.transcript td.probe { overflow-wrap: anywhere; color: #3d444d; }
.transcript td.dir { color: #59636e; overflow-wrap: anywhere; }
.transcript tr.d-send td.dir { color: #0b5cad; }
.transcript tr.d-recv td.dir { color: #1d6f33; }
.transcript tr.d-stderr td.dir, .transcript tr.d-note td.dir { color: #8a5300; }
.transcript tr.cited td.n { border-left: 3px solid var(--fail); }
.transcript tr:target td { background: #fff5cc; }
.transcript tr.gap td { color: #59636e; font-style: italic; text-align: center; background: var(--soft); }
.remark { color: #59636e; font-size: 12px; }
.cites { font-size: 12px; color: #59636e; }
@media print { .check { break-inside: avoid; } .verdict { print-color-adjust: exact; -webkit-print-color-adjust: exact; } }
`;
