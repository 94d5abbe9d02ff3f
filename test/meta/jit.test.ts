import t from "tap";
import { HEAVY_BYTES, jitSwitch } from "../../src/meta/jit.ts";

t.test("the JIT switch: the normal policy once input passes HEAVY_BYTES, set once, never for less", async (t) => {
  const set: number[] = [];
  const heavyInput = jitSwitch((scale) => set.push(scale));
  heavyInput(0);
  heavyInput(HEAVY_BYTES);
  t.same(set, [], "input up to HEAVY_BYTES keeps the start policy");
  heavyInput(HEAVY_BYTES + 1);
  t.same(set, [1], "past it, the normal policy (scale 1)");
  heavyInput(10 * HEAVY_BYTES);
  t.same(set, [1], "set once for the process");
});
