import t from "tap";
import F4 from "../../checks/F4.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, served } from "../helpers/transcript.ts";
import { oneFindingEverywhere } from "../helpers/every-frame.ts";

runCases(F4, [
  { name: "profile timestamps", build: () => served([frame({ valid_from: "2026-01-01T00:00:00Z", valid_to: "2027-01-01T00:00:00.000Z" })]), status: "pass" },
  {
    name: "a +00:00 offset",
    build: () => served([frame({ recorded_at: "2026-07-20T18:00:00+00:00" })]),
    status: "fail",
    says: [/recorded_at "2026-07-20T18:00:00\+00:00"/],
    codes: ["F4.off-profile"],
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
  const bad = ["valid_from", "valid_to", "recorded_at"].flatMap(
    (m): Array<[string, unknown]> => [
      [m, "2026-07-20T18:00:00+00:00"],
      [m, 20260720],
    ],
  );
  oneFindingEverywhere(t, F4, bad, (m, v) => `has ${m} ${JSON.stringify(v)} outside the profile`);
});
