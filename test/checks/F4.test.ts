import t from "tap";
import F4 from "../../checks/F4.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, frames, query, served, type TranscriptBuilder } from "../helpers/transcript.ts";

runCases(F4, [
  { name: "profile timestamps", build: () => served([frame({ valid_from: "2026-01-01T00:00:00Z", valid_to: "2027-01-01T00:00:00.000Z" })]), status: "pass" },
  {
    name: "a +00:00 offset",
    build: () => served([frame({ recorded_at: "2026-07-20T18:00:00+00:00" })]),
    status: "fail",
    says: [/recorded_at "2026-07-20T18:00:00\+00:00"/],
    never: [/must match pattern/],
  },
  { name: "lowercase t", build: () => served([frame({ valid_from: "2026-07-20t18:00:00Z" })]), status: "fail" },
  { name: "lowercase z", build: () => served([frame({ valid_to: "2026-07-20T18:00:00z" })]), status: "fail" },
  { name: "a space separator", build: () => served([frame({ valid_from: "2026-07-20 18:00:00Z" })]), status: "fail" },
  { name: "missing seconds", build: () => served([frame({ recorded_at: "2026-07-20T18:00Z" })]), status: "fail" },
  { name: "null is absent", build: () => served([frame({ valid_to: null })]), status: "pass" },
  { name: "no timestamps at all", build: () => served([frame({ recorded_at: undefined })]), status: "skip", says: [/no served frame carries/] },
]);

t.test("one timestamp outside the profile is one finding, F4's, wherever the frame was served", async (t) => {
  const places: Array<[string, (bad: Record<string, unknown>) => TranscriptBuilder]> = [
    ["sample-query", (bad) => served([frame(bad)])],
    [
      "another probe",
      (bad) =>
        served([frame()])
          .probe("kinds-query")
          .handshake()
          .send("kinds-1", query("k1"))
          .recv(frames("k1", [frame(bad)])),
    ],
    ["a frames envelope no query was answered by", (bad) => served([frame()]).recv(frames("x", [frame(bad)]))],
  ];
  for (const member of ["valid_from", "valid_to", "recorded_at"]) {
    for (const value of ["2026-07-20T18:00:00+00:00", 20260720]) {
      for (const [where, build] of places) {
        const r = build({ [member]: value }).scoreWith(F4);
        const failing = r.evidence.filter((e) => !e.ok);
        t.equal(r.status, "fail", `${member} ${value}, ${where}: fails`);
        t.same(
          failing.map((e) => e.message.replace(/ \(result.*/, "")),
          [`frame "frm_1"`],
          `${member} ${value}, ${where}: one finding, in F4's words`,
        );
        t.match(failing[0]?.message, `has ${member} ${JSON.stringify(value)} outside the profile`);
        for (const e of r.evidence) t.notOk("judges" in e || "site" in e, "scoring data stays out of the report");
      }
    }
  }
});
