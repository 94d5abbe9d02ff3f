import P2 from "../../checks/P2.ts";
import { runCases } from "../helpers/cases.ts";
import { at5, compact, full, shapes } from "../helpers/representation.ts";

runCases(P2, [
  {
    name: "a compact frame with all five members",
    build: shapes([full()], { compact: [compact()] }),
    status: "pass",
    says: [/every compact frame has the compact shape/],
  },
  {
    name: "a compact frame without its transform and handle",
    build: shapes([compact({ transform: undefined, content_ref: undefined })]),
    status: "fail",
    codes: ["P2.misshaped"],
    says: [
      new RegExp(
        `${at5("frm_compact")} is compact but lacks transform, content_ref \\| present: content, content_digest, canonical_content_hash, transform, content_ref \\| missing transform, content_ref`,
      ),
    ],
  },
  {
    name: "a compact frame with a null content_digest",
    build: shapes([compact({ content_digest: null })]),
    status: "fail",
    says: [/is compact but lacks content_digest/],
  },
  {
    name: "a compact frame served to the representations probe, without canonical_content_hash",
    build: shapes([full()], { full: [full()], compact: [compact({ canonical_content_hash: undefined })] }),
    status: "fail",
    says: [/frame "frm_compact" \(result\.frames\[0\], line 11\) is compact but lacks canonical_content_hash/],
  },
  { name: "no compact frame served", build: shapes([full()]), status: "skip", says: [/no compact frame was served/] },
]);
