import F3 from "../../checks/F3.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, served } from "../helpers/transcript.ts";

runCases(F3, [
  { name: "a citation label", build: () => served([frame()]), status: "pass" },
  { name: "an empty citation label", build: () => served([frame({ citation_label: "" })]), status: "fail", says: [/citation_label/] },
]);
