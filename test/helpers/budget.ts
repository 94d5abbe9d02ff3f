/** Canned budget-squeeze answers for the budget checks (B1, B4). */
import { BUDGET_SQUEEZE } from "../../src/protocol/probes.ts";
import { emptySample, frame, frames, query, type TranscriptBuilder } from "./transcript.ts";

/** A frame whose content costs exactly `cost` tokens. */
export const costing = (id: string, cost: number): Record<string, unknown> => frame({ id, content: "x".repeat(cost * 4), token_cost: cost });

/**
 * The budget-squeeze shape after an empty sample-query: generous (frames
 * costing 3 and 5), then max_frames 1 answered with `oneFrame`, then
 * max_tokens 4 answered with `tight`.
 */
export const squeeze = (oneFrame: object[], tight: object[]) => (): TranscriptBuilder =>
  emptySample()
    .probe(BUDGET_SQUEEZE.name)
    .handshake()
    .send(BUDGET_SQUEEZE.steps.generous, query("q1"))
    .recv(frames("q1", [costing("a", 3), costing("b", 5)]))
    .send(BUDGET_SQUEEZE.steps.oneFrame, query("q2", { max_frames: 1 }))
    .recv(frames("q2", oneFrame))
    .send(BUDGET_SQUEEZE.steps.tightTokens, query("q3", { max_tokens: 4 }))
    .recv(frames("q3", tight));
