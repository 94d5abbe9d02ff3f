import t from "tap";
import { GROUP_AT, groupAlike, mergeSame, type Evidence } from "../../checks/kit/check.ts";

const frame = (i: number, cost = 3): Evidence => ({
  ok: false,
  code: "cost-mismatch",
  params: { frame: `f${i}`, index: i, declared: cost },
  message: `frame "f${i}" (result.frames[${i}], line ${5 + (i % 2) * 2}) declares token_cost ${cost} but its content is 4 UTF-8 bytes → ceil(4/4) = 1`,
  expected: "1",
  actual: String(cost),
  lines: [5 + (i % 2) * 2],
});

t.test("alike findings are one finding with a count, the next few messages and every line", async (t) => {
  const all = Array.from({ length: 1000 }, (_, i) => frame(i));
  const [one, ...rest] = groupAlike(all);
  t.equal(rest.length, 0);
  t.equal(one!.occurrences, 1000);
  t.match(one!.message, /^frame "f0" .* \(the first of 1000 like it\)$/);
  t.same(one!.also, [all[1]!.message, all[2]!.message, all[3]!.message]);
  t.same(one!.lines, [5, 7]);
  t.equal(one!.expected, "1");
});

t.test("below the threshold, each is shown; distinct defects and distinct strengths never merge", async (t) => {
  const few = Array.from({ length: GROUP_AT - 1 }, (_, i) => frame(i));
  t.same(groupAlike(few), few);
  const mixed = [frame(0), { ...frame(1), level: "SHOULD" as const }, { ...frame(2), ok: true }, frame(3), frame(4), frame(5)];
  const out = groupAlike(mixed);
  t.equal(out.length, 3, "the MUST failures group; the SHOULD one and the pass stay apart");
  t.equal(out[0]!.occurrences, 4);
  t.same(
    out.slice(1).map((e) => e.message),
    [mixed[1]!.message, mixed[2]!.message],
    "in the order of first appearance",
  );
  const apart = [frame(0), frame(1), frame(2), frame(3)].map((e, i) => ({ ...e, apart: JSON.stringify([i % 2 ? "canonical_token_cost" : "token_cost"]) }));
  t.equal(groupAlike(apart).length, 4, "findings that differ in what their table sets apart are different defects (two of each is below the threshold)");
  const codes = [frame(0), frame(1), frame(2), frame(3)].map((e, i) => ({ ...e, code: i % 2 ? "cost-unstated" : e.code }));
  t.equal(groupAlike(codes).length, 4, "findings of two codes are different defects, however alike their words");
  const worded = [frame(0), frame(1), frame(2), frame(3)].map((e, i) => ({ ...e, message: `${e.message}${"!".repeat(i)}` }));
  t.equal(groupAlike(worded)[0]!.occurrences, 4, "findings of one code are one defect, whatever their words hold");
});

t.test("merging repeats of one finding unites their lines once, in order", async (t) => {
  const e = (lines: number[]): Evidence => ({ ok: false, code: "same", params: {}, message: "same", lines });
  t.same(mergeSame([e([9, 3]), e([3, 4]), e([1])]), [{ ok: false, code: "same", params: {}, message: "same", lines: [1, 3, 4, 9] }]);
  t.same(mergeSame([e([9, 3])]), [{ ok: false, code: "same", params: {}, message: "same", lines: [9, 3] }], "a finding seen once keeps its lines as given");
});
