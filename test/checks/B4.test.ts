import B4 from "../../checks/B4.ts";
import { costing as f, squeeze } from "../helpers/budget.ts";
import { runCases } from "../helpers/cases.ts";

runCases(B4, [
  { name: "one frame when asked for one", build: squeeze([f("a", 3)], [f("a", 3)]), status: "pass" },
  {
    name: "two frames when asked for one",
    build: squeeze([f("a", 3), f("b", 5)], [f("a", 3)]),
    status: "fail",
    codes: ["B4.over-max"],
    says: [/max_frames was 1 but 2 frames were returned/],
  },
]);
