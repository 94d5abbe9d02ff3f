import P3 from "../../checks/P3.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { runCases } from "../helpers/cases.ts";
import { at5, compact, full, reference, shapes, SOURCE } from "../helpers/representation.ts";

runCases(P3, [
  {
    name: "a reference frame: a handle and a hash, no content",
    build: shapes([reference()]),
    status: "pass",
    says: [/every reference frame has the reference shape/],
  },
  {
    name: "a reference frame with empty content",
    build: shapes([reference({ content: "" })]),
    status: "fail",
    codes: ["P3.misshaped"],
    says: [
      new RegExp(
        `${at5("frm_ref")} is reference but carries content \\| present: content_ref, canonical_content_hash; absent: content, content_digest, transform \\| present content`,
      ),
    ],
  },
  {
    name: "a reference frame with a content_digest and no canonical_content_hash",
    build: shapes([reference({ canonical_content_hash: undefined, content_digest: digestOfText(SOURCE) })]),
    status: "fail",
    says: [/is reference but lacks canonical_content_hash and carries content_digest \| .* \| missing canonical_content_hash; present content_digest/],
  },
  {
    name: "a reference frame with no handle",
    build: shapes([reference({ content_ref: undefined })]),
    status: "fail",
    says: [/is reference but lacks content_ref/],
  },
  { name: "no reference frame served", build: shapes([full()], { compact: [compact()] }), status: "skip", says: [/no reference frame was served/] },
]);
