import t from "tap";
import { HEAVY_BYTES, heavyInput } from "../../src/meta/jit.ts";

t.test("heavyInput: the normal JIT policy once input passes HEAVY_BYTES, set once, never for less", async (t) => {
  const set: number[] = [];
  const setter = (scale: number) => set.push(scale);
  heavyInput(0, setter);
  heavyInput(HEAVY_BYTES, setter);
  t.same(set, [], "input up to HEAVY_BYTES keeps the start policy");
  heavyInput(HEAVY_BYTES + 1, setter);
  t.same(set, [1], "past it, the normal policy (scale 1)");
  heavyInput(10 * HEAVY_BYTES, setter);
  t.same(set, [1], "set once for the process");
});
