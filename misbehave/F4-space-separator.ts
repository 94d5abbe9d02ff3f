import { defineMode } from "./mode.ts";

/** Breaks F4: RFC 3339 allows a space between date and time; the profile requires "T". */
export default defineMode({
  name: "F4-space-separator",
  defect: "writes valid_from with a space instead of T between date and time",
  expectFail: ["F4"],
  finding: /has valid_from "\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z" outside the profile/,
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return doc.valid_from ? { ...f, valid_from: doc.valid_from.replace("T", " ") } : f;
    },
  }),
});
