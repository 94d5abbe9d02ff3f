import B1 from "../../checks/B1.ts";
import B4 from "../../checks/B4.ts";
import { runCases } from "../helpers/cases.ts";
import { emptySample, frame, frames, query } from "../helpers/transcript.ts";

const f = (id: string, cost: number) => frame({ id, content: "x".repeat(cost * 4), token_cost: cost });

/** The budget-squeeze shape: generous, then one frame, then tight tokens. */
const squeeze = (oneFrame: object[], tight: object[]) => () =>
  emptySample()
    .probe("budget-squeeze")
    .handshake()
    .send("generous", query("q1"))
    .recv(frames("q1", [f("a", 3), f("b", 5)]))
    .send("one-frame", query("q2", { max_frames: 1 }))
    .recv(frames("q2", oneFrame))
    .send("tight-tokens", query("q3", { max_tokens: 4 }))
    .recv(frames("q3", tight));

runCases(B1, [
  { name: "every answer within budget", build: squeeze([f("a", 3)], [f("a", 3)]), status: "pass", says: [/tight-tokens: 1 frames cost 3 ≤ max_tokens 4/] },
  { name: "over budget under pressure", build: squeeze([f("a", 3)], [f("a", 3), f("b", 5)]), status: "fail", says: [/max_tokens was 4 but the 2 frames returned declare token_cost 3 \+ 5 = 8/] },
  { name: "only errors came back", build: () => emptySample().probe("budget-squeeze").handshake().send("generous", query("q1")).recv({ type: "error", id: "q1", code: "unavailable", message: "down" }), status: "skip" },
]);

runCases(B4, [
  { name: "one frame when asked for one", build: squeeze([f("a", 3)], [f("a", 3)]), status: "pass" },
  { name: "two frames when asked for one", build: squeeze([f("a", 3), f("b", 5)], [f("a", 3)]), status: "fail", says: [/max_frames was 1 but 2 frames were returned/] },
]);
