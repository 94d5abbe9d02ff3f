import t from "tap";
import F3 from "../../checks/F3.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, served } from "../helpers/transcript.ts";
import { oneFindingEverywhere } from "../helpers/every-frame.ts";

runCases(F3, [
  { name: "a citation label", build: () => served([frame()]), status: "pass" },
  { name: "an empty citation label", build: () => served([frame({ citation_label: "" })]), status: "fail", says: [/citation_label/], codes: ["F3.empty"] },
]);

t.test("an empty or mistyped citation_label is one finding, F3's, wherever the frame was served", async (t) => {
  oneFindingEverywhere(
    t,
    F3,
    [
      ["citation_label", ""],
      ["citation_label", 7],
    ],
    () => "has an empty or missing citation_label",
  );
});
