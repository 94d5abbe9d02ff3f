import P4 from "../../checks/P4.ts";
import { budgetTokens } from "../../src/math/budget.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { runCases } from "../helpers/cases.ts";
import { at5, compact, full, reference, shapes, SOURCE, unanswered } from "../helpers/representation.ts";

runCases(P4, [
  {
    name: "compact costs its inline bytes, reference costs nothing",
    build: shapes([full()], { compact: [compact()], reference: [reference()] }),
    status: "pass",
    says: [/every compact frame declares the cost of its inline bytes/, /every reference frame declares the cost of its inline bytes/],
  },
  {
    name: "a reference frame declaring its source's cost",
    build: shapes([reference({ token_cost: 12 })]),
    status: "fail",
    codes: ["P4.reference-cost"],
    says: [new RegExp(`${at5("frm_ref")} is a reference frame \\(no inline content\\) but declares token_cost 12 \\| 0 \\| 12`)],
  },
  {
    name: "a compact frame declaring its canonical_token_cost",
    build: shapes([compact({ token_cost: budgetTokens(SOURCE) })]),
    status: "fail",
    codes: ["P4.compact-cost"],
    says: [
      new RegExp(
        `${at5("frm_compact")} is compact: its inline content is 4 UTF-8 bytes → ceil\\(4/4\\) = 1, but it declares token_cost ${budgetTokens(SOURCE)} \\(its canonical_token_cost: the full-source cost\\)`,
      ),
    ],
  },
  {
    name: "a compact frame counting UTF-16 code units",
    build: shapes([compact({ content: "日本語のテキスト", content_digest: digestOfText("日本語のテキスト"), token_cost: 2 })]),
    status: "fail",
    says: [/is compact: its inline content is 24 UTF-8 bytes → ceil\(24\/4\) = 6, but it declares token_cost 2 \| 6 \| 2$/m],
  },
  { name: "only full frames served", build: shapes([full()], { full: [full()] }), status: "skip", says: [/no compact or reference frame was served/] },
  {
    name: "a query left unanswered: what was served is judged, the lost query being another rule's stimulus",
    build: unanswered([compact()]),
    status: "pass",
    says: [],
  },
]);
