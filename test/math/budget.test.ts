import t from "tap";
import { budgetTokens, utf8ByteLength } from "../../src/math/budget.ts";

const cases: Array<[string, number, number]> = [
  ["", 0, 0],
  ["a", 1, 1],
  ["abcd", 4, 1],
  ["abcde", 5, 2],
  ["日本語", 9, 3], // 3 UTF-16 units: a .length count would say 1
  ["🚀", 4, 1], // 2 UTF-16 units, one astral code point
  ["é", 2, 1],
  ["a🚀b日", 9, 3],
];

for (const [s, bytes, tokens] of cases) {
  t.test(JSON.stringify(s), async (t) => {
    t.equal(utf8ByteLength(s), bytes, "UTF-8 byte length");
    t.equal(budgetTokens(s), tokens, "ceil(bytes / 4)");
  });
}
