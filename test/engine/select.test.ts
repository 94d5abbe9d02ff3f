import t from "tap";
import { CHECKS } from "../../checks/index.ts";
import { parsePatterns, selectChecks } from "../../src/engine/select.ts";

const ids = (only?: string[], skip?: string[]): string[] =>
  selectChecks(CHECKS, only && parsePatterns(only), skip && parsePatterns(skip)).selected.map((c) => c.id);
const all = CHECKS.map((c) => c.id);

t.test("pattern table: --only / --skip → selected ids", async (t) => {
  const table: { only?: string[]; skip?: string[]; want: string[] }[] = [
    { want: all },
    { only: ["H1"], want: ["H1"] },
    { only: ["h1"], want: ["H1"] },
    { only: ["S2-framing"], want: ["S2-framing"] },
    { only: ["B*"], want: ["B1", "B3", "B4"] },
    { only: ["S6-*"], want: ["S6-as-of", "S6-signatures"] },
    { only: ["S*"], want: ["S2-framing", "S2-envelope", "S6-as-of", "S6-signatures"] },
    { only: ["F1*"], want: ["F1", "F11", "F12", "F13"] },
    { only: ["F11-F13"], want: ["F11", "F12", "F13"] },
    { only: ["F11-13"], want: ["F11", "F12", "F13"] },
    { only: ["B1-B3"], want: ["B1", "B3"] },
    { only: ["S2-S6"], want: ["S2-framing", "S2-envelope", "S6-as-of", "S6-signatures"] },
    // Registry order is kept, whatever order the patterns come in.
    { only: ["H2,H1", "F1"], want: ["H1", "H2", "F1"] },
    { only: ["H*, F1"], want: ["H1", "H2", "H3", "H4", "F1"] },
    { skip: ["F*,S*"], want: all.filter((id) => !id.startsWith("F") && !id.startsWith("S")) },
    { only: ["F*"], skip: ["F11-F13", "F5"], want: ["F1", "F2", "F3", "F4", "F6", "F7"] },
    { only: ["H1"], skip: ["H1"], want: [] },
    { only: ["*"], want: all },
  ];
  for (const row of table) t.same(ids(row.only, row.skip), row.want, `only ${row.only?.join(" ") ?? "-"} skip ${row.skip?.join(" ") ?? "-"}`);
});

t.test("S2-framing is an id, F11-13 a range", async (t) => {
  t.same(parsePatterns(["S2-framing"]), [{ kind: "id", source: "S2-framing", id: "S2-framing" }]);
  t.same(
    parsePatterns(["S6-as-of"]).map((p) => p.kind),
    ["id"],
  );
  t.same(parsePatterns(["F11-13"]), [{ kind: "range", source: "F11-13", prefix: "F", from: 11, to: 13 }]);
  t.same(parsePatterns(["F11-F13"]), [{ kind: "range", source: "F11-F13", prefix: "F", from: 11, to: 13 }]);
  t.same(
    parsePatterns(["B*"]).map((p) => p.kind),
    ["glob"],
  );
});

t.test("malformed patterns throw", async (t) => {
  t.throws(() => parsePatterns(["F11-G13"]), /one prefix/);
  t.throws(() => parsePatterns(["F13-F11"]), /backwards/);
  t.throws(() => parsePatterns(["H1,,H2"]), /empty pattern/);
  t.throws(() => parsePatterns([""]), /empty pattern/);
  t.throws(() => parsePatterns(["H?"]), /not a check id/);
  t.throws(() => parsePatterns(["H.*"]), /characters/);
});

t.test("a pattern matching no check is unmatched", async (t) => {
  const r = selectChecks(CHECKS, parsePatterns(["H1,Z9"]), parsePatterns(["F99"]));
  t.same(
    r.selected.map((c) => c.id),
    ["H1"],
  );
  t.same(r.unmatched, ["Z9", "F99"]);
  t.match(r.notes.join("\n"), /--only Z9 matches no registered check/);
  t.match(r.notes.join("\n"), /--skip F99 matches no registered check/);
});

t.test("a skip pattern is held to the registry, not to what --only left", async (t) => {
  const r = selectChecks(CHECKS, parsePatterns(["F*"]), parsePatterns(["H1"]));
  t.same(r.unmatched, []);
});

t.test("an excluded anchor is unmatched, with the reason it is excluded", async (t) => {
  const r = selectChecks(CHECKS, parsePatterns(["C1"]), undefined);
  t.same(r.selected, []);
  t.same(r.unmatched, ["C1"]);
  t.match(r.notes[0], /C1 is excluded.*host-side/);

  const range = selectChecks(CHECKS, parsePatterns(["C1-C4"]), undefined);
  t.same(range.unmatched, ["C1-C4"]);
  t.equal(range.notes.length, 4, "one note per anchor in the range: excluded, or checked by the host command");
  t.ok(
    range.notes.some((n) => /C2 is a host rule: cgp-conform host runs host:C2/.test(n)),
    "C2 is named as a host rule",
  );

  const skip = selectChecks(CHECKS, undefined, parsePatterns(["A1"]));
  t.same(skip.unmatched, ["A1"]);
  t.match(skip.notes[0], /--skip A1: A1 is excluded/);
  const hostRule = selectChecks(CHECKS, undefined, parsePatterns(["UR1"]));
  t.match(hostRule.notes[0], /--skip UR1: UR1 is a host rule: cgp-conform host runs host:UR1/, "an anchor only a host check covers is named as one");
});

t.test("a matching --only pattern that also names excluded anchors says so", async (t) => {
  const r = selectChecks(CHECKS, parsePatterns(["F6-F8"]), undefined);
  t.same(r.unmatched, []);
  t.same(r.notes.length, 1);
  t.match(r.notes[0], /also names excluded anchor F8\b/);
  t.same(selectChecks(CHECKS, parsePatterns(["H*"]), undefined).notes, [], "no note when nothing excluded is named");
});

t.test("repeated patterns report once", async (t) => {
  const r = selectChecks(CHECKS, parsePatterns(["Z9,Z9", "Z9"]), undefined);
  t.same(r.unmatched, ["Z9"]);
  t.equal(r.notes.length, 1);
});
