import t from "tap";
import { citedLines, showChecks } from "../../../src/report/html/evidence.ts";
import { page } from "../../../src/report/html/template.ts";
import { check, ev } from "../../helpers/reports.ts";

t.test("cited lines: in page order (failures first), each with the checks citing it, once each", async (t) => {
  const shown = showChecks([
    check("P", "pass", [ev("pass", "p", { lines: [7, 3] })]),
    check("F", "fail", [ev("fail", "a", { lines: [5, 3] }), ev("fail", "b", { lines: [3, 9] }), ev("pass", "c", { lines: [11] })]),
  ]);
  const cited = citedLines(shown, (n) => n !== 9);
  t.same([...cited.keys()], [5, 3, 11, 7], "the failing check's lines come first, its passing observations after, then the passing check's");
  t.same(cited.get(3), ["F", "P"], "a line cited twice by one check names it once");
  t.notOk(cited.has(9), "a line the transcript lacks is not cited");
});

t.test("the page holds its parts in order, under a policy that forbids all but inline style", async (t) => {
  const html = page("a &amp; b", "<header>H</header>", ["<p>one</p>", "", "<p>two</p>"]);
  t.match(html, /^<!DOCTYPE html>\n<html lang="en">\n<head>\n/, "a document");
  t.match(html, /<title>a &amp; b<\/title>/, "the title as given");
  t.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"\/>/);
  t.ok(
    html.endsWith("<body>\n<header>H</header>\n<main>\n<p>one</p>\n\n<p>two</p>\n</main>\n</body>\n</html>\n"),
    "header, then every part, one a line, in order",
  );
  t.notMatch(html, /<script/i, "no script");
});
