import t from "tap";
import F2 from "../../checks/F2.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, served } from "../helpers/transcript.ts";
import { oneFindingEverywhere } from "../helpers/every-frame.ts";

runCases(F2, [
  { name: "a title", build: () => served([frame()]), status: "pass" },
  { name: "an empty title", build: () => served([frame({ title: "" })]), status: "fail", says: [/empty or missing title/], codes: ["F2.empty"] },
  { name: "no title", build: () => served([frame({ title: undefined })]), status: "fail" },
]);

t.test("an empty or mistyped title is one finding, F2's, wherever the frame was served", async (t) => {
  oneFindingEverywhere(
    t,
    F2,
    [
      ["title", ""],
      ["title", 7],
    ],
    () => "has an empty or missing title",
  );
});
