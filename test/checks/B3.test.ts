import t from "tap";
import B3 from "../../checks/B3.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, served } from "../helpers/transcript.ts";

runCases(B3, [
  { name: "ASCII, exact", build: () => served([frame({ content: "abcde", token_cost: 2 })]), status: "pass" },
  {
    name: "a String.length count on CJK",
    build: () => served([frame({ id: "frm_2", content: "日本語のテキスト", token_cost: 2 })]),
    status: "fail",
    says: [
      /frame "frm_2" .* declares token_cost 2 but its content is 24 UTF-8 bytes → ceil\(24\/4\) = 6 \(2 is ceil\(8\/4\) over its 8 characters, as code points or UTF-16 code units alike/,
    ],
    codes: ["B3.cost-mismatch"],
  },
  {
    name: "a floor on non-ASCII content: the hint is the floor, not UTF-16",
    build: () => served([frame({ content: "日本語のテキストです", token_cost: 7 })]),
    status: "fail",
    says: [/30 UTF-8 bytes → ceil\(30\/4\) = 8 \(7 is floor\(30\/4\): the count rounds up\) \| /],
  },
  {
    name: "a cost no known miscount explains gets no hint",
    build: () => served([frame({ content: "日本語", token_cost: 40 })]),
    status: "fail",
    says: [/declares token_cost 40 but its content is 9 UTF-8 bytes → ceil\(9\/4\) = 3 \| /],
  },
  {
    name: "an emoji counted by code units",
    build: () => served([frame({ content: "🚀🚀🚀", token_cost: 2 })]),
    status: "fail",
    says: [/12 UTF-8 bytes → ceil\(12\/4\) = 3 \(2 is ceil\(6\/4\) over its 6 UTF-16 code units/],
  },
  {
    name: "astral characters counted by code points: the hint names code points, not units",
    build: () => served([frame({ content: "🚀🚀🚀🚀", token_cost: 1 })]),
    status: "fail",
    says: [/16 UTF-8 bytes → ceil\(16\/4\) = 4 \(1 is ceil\(4\/4\) over its 4 code points/],
  },
  { name: "one token over: no tolerance", build: () => served([frame({ content: "abcd", token_cost: 2 })]), status: "fail" },
  { name: "no content costs 0", build: () => served([frame({ content: undefined, token_cost: 0 })]), status: "pass" },
  { name: "a non-number cost", build: () => served([frame({ token_cost: "1" })]), status: "fail" },
]);

t.test("a cost mismatch carries its numbers as params, and the miscount that explains them", async (t) => {
  const r = served([frame({ id: "frm_2", content: "日本語のテキスト", token_cost: 2 })]).scoreWith(B3);
  const e = r.evidence.find((x) => x.code === "B3.cost-mismatch");
  t.same(e?.params, { frame: { id: "frm_2", index: 0, line: e?.lines[0] }, declared: 2, bytes: 24, cost: 6, miscount: { kind: "characters", n: 8 } });
});

t.test("different miscounts are different findings, each folded with its own count", async (t) => {
  const floor = Array.from({ length: 4 }, (_, i) => frame({ id: `floor-${i}`, content: "abcdefg", token_cost: 1 }));
  const chars = Array.from({ length: 4 }, (_, i) => frame({ id: `chars-${i}`, content: "日本語のテキスト", token_cost: 2 }));
  const r = served([...floor, ...chars]).scoreWith(B3);
  const failing = r.evidence.filter((e) => !e.ok);
  t.same(
    failing.map((e) => [(e.params?.miscount as { kind: string } | null)?.kind, e.occurrences]),
    [
      ["floor", 4],
      ["characters", 4],
    ],
    "a floor and a character count are two defects, four frames each",
  );
});
