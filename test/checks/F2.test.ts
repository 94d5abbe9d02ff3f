import F2 from "../../checks/F2.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, served } from "../helpers/transcript.ts";

runCases(F2, [
  { name: "a title", build: () => served([frame()]), status: "pass" },
  { name: "an empty title", build: () => served([frame({ title: "" })]), status: "fail", says: [/empty or missing title/] },
  { name: "no title", build: () => served([frame({ title: undefined })]), status: "fail" },
]);
