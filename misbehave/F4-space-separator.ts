import { defineMode } from "./mode.ts";

/** Breaks F4: RFC 3339 allows a space between date and time; the profile requires "T". */
export default defineMode({
  name: "F4-space-separator",
  defect: "writes valid_from with a space instead of T between date and time",
  expectFail: ["F4"],
  finding: { code: "F4.off-profile", params: { members: [{ name: "valid_from", value: "2026-01-01 00:00:00Z" }] } },
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return doc.valid_from ? { ...f, valid_from: doc.valid_from.replace("T", " ") } : f;
    },
  }),
});
