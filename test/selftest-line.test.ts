/** A selftest line: an ok case is one line; a BAD one says what its checks saw, each its status and first finding. */
import t from "tap";
import { selftestLine } from "../src/cli/selftest.ts";
import type { SelftestCase } from "../src/engine/selftest-case.ts";
import { check, ev } from "./helpers/reports.ts";

const base: SelftestCase = {
  name: "host:U2-drop-whole-answer",
  transport: "stdio",
  defect: "composes nothing of an answer holding an unknown kind",
  expectFail: ["host:U2"],
  expectWarn: [],
  expectInfo: [],
  expectUnobserved: [],
  failed: ["host:U2"],
  missed: [],
  extra: [],
  unpinned: [],
  unclean: [],
  ok: true,
  results: [],
};

t.test("an ok case is one line", async (t) => {
  t.notMatch(selftestLine(base), /\n/);
});

t.test("a BAD case says what was expected, what was seen, and why", async (t) => {
  const bad: SelftestCase = {
    ...base,
    ok: false,
    failed: ["host:U1"],
    missed: ["host:U2"],
    extra: ["host:U1"],
    results: [
      check("host:U2", "pass", [ev("pass", "the host composed all 4 frames of a known kind")]),
      check("host:U1", "fail", [ev("fail", "scenario unknown-members (line 9): the host wrote no block")]),
    ],
  };
  const [head, ...why] = selftestLine(bad).split("\n");
  t.match(head, /^.*BAD .* fails host:U2 — not caught by host:U2; also failed host:U1$/);
  t.same(why, [
    "       host:U2 pass: the host composed all 4 frames of a known kind",
    "       host:U1 fail: scenario unknown-members (line 9): the host wrote no block",
  ]);
});
