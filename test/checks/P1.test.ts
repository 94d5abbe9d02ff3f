import P1 from "../../checks/P1.ts";
import { runCases } from "../helpers/cases.ts";
import { at5, compact, full, shapes, unanswered } from "../helpers/representation.ts";

runCases(P1, [
  {
    name: "full frames, tagged or not",
    build: shapes([full(), full({ id: "frm_tagged", representation: "full" })], { full: [full()] }),
    status: "pass",
    says: [/every full frame has the full shape/],
  },
  {
    name: "a full frame without content",
    build: shapes([full({ content: undefined, token_cost: 0 })]),
    status: "fail",
    codes: ["P1.misshaped"],
    says: [
      new RegExp(
        `${at5("frm_full")} is full but lacks content \\| present: content; absent: content_ref, transform, canonical_content_hash \\| missing content`,
      ),
    ],
  },
  {
    name: "a compact frame that forgot its representation tag",
    build: shapes([compact({ representation: undefined })]),
    status: "fail",
    says: [
      new RegExp(
        `${at5("frm_compact")} is full but carries content_ref, transform, canonical_content_hash \\| .* \\| present content_ref, transform, canonical_content_hash`,
      ),
    ],
  },
  {
    name: "a full frame lacking content and carrying a transform",
    build: shapes([full({ content: undefined, token_cost: 0, transform: { method: "summarise" } })]),
    status: "fail",
    says: [/is full but lacks content and carries transform/],
  },
  { name: "only compact frames served", build: shapes([compact()], { compact: [compact()] }), status: "skip", says: [/no full frame was served/] },
  {
    name: "a query left unanswered: what was served is judged, the lost query being another rule's stimulus",
    build: unanswered([full()]),
    status: "pass",
    says: [],
  },
]);
