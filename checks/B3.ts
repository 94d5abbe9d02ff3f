import { defineCheck } from "./kit/check.ts";
import { budgetTokens, utf8ByteLength } from "../src/math/budget.ts";
import { frameAt, framed, kept, perFrame, type FrameAt } from "./kit/answers.ts";
import { findings, type Param } from "./kit/findings.ts";
import { representationOf } from "./kit/representation.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/** A known miscount of the content that gives the declared number, to lead to the fix. */
type Miscount = { kind: "characters" | "utf16-units" | "code-points"; n: number } | { kind: "floor"; bytes: number };

/**
 * What the declared cost is, when it is a known miscount of the content: a
 * hint that leads to the fix. Said only when it holds: the declared number is
 * exactly what that miscount gives.
 */
function miscount(got: unknown, content: string, bytes: number): Miscount | null {
  if (typeof got !== "number") return null;
  const units = content.length;
  const points = [...content].length;
  // Without astral characters the two counts agree, and either miscount gives the number: name both, so neither reader is misled.
  if (units !== bytes && units === points && got === Math.ceil(units / 4)) return { kind: "characters", n: units };
  if (units !== bytes && got === Math.ceil(units / 4)) return { kind: "utf16-units", n: units };
  if (points !== bytes && points !== units && got === Math.ceil(points / 4)) return { kind: "code-points", n: points };
  if (got === Math.floor(bytes / 4)) return { kind: "floor", bytes };
  return null;
}

function hint(got: Param, m: Miscount | null): string {
  if (m === null) return "";
  switch (m.kind) {
    case "characters":
      return ` (${got} is ceil(${m.n}/4) over its ${m.n} characters, as code points or UTF-16 code units alike: counting characters is not counting bytes)`;
    case "utf16-units":
      return ` (${got} is ceil(${m.n}/4) over its ${m.n} UTF-16 code units: counting those is not counting bytes)`;
    case "code-points":
      return ` (${got} is ceil(${m.n}/4) over its ${m.n} code points: counting those is not counting bytes)`;
    case "floor":
      return ` (${got} is floor(${m.bytes}/4): the count rounds up)`;
  }
}

type Mismatch = { frame: FrameAt; declared: Param; bytes: number; cost: number; miscount: Miscount | null };

const F = findings({
  "cost-mismatch": {
    // One miscount is one defect; a floor, a UTF-16 count and an arbitrary number are three.
    apart: (p: Mismatch) => (p.miscount === null ? null : p.miscount.kind),
    says: (p: Mismatch) =>
      `${framed(p.frame)} declares token_cost ${show(p.declared)} but its content is ${p.bytes} UTF-8 bytes → ceil(${p.bytes}/4) = ${p.cost}` +
      hint(p.declared, p.miscount),
    expected: (p: Mismatch) => String(p.cost),
    actual: (p: Mismatch) => show(p.declared),
  },
});

/**
 * @anchor B3
 * Stimulus: every full frame served to probes sample-query and budget-squeeze
 * (compact and reference frames are P4's). Equality is exact: "A provider
 * cannot 'disagree' with a byte count."
 */
export default defineCheck({
  findings: F.table,
  id: "B3",
  title: "Each frame's token_cost equals ceil(UTF-8 bytes / 4)",
  level: "MUST",
  requirement: "token_cost MUST equal ceil(utf8_byte_length(content) / 4).",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score({ probe }) {
    return perFrame([probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)], "declare token_cost = ceil(UTF-8 bytes of content / 4)", (f) => {
      if (representationOf(f) !== "full") return undefined;
      const content = typeof f.frame.content === "string" ? f.frame.content : "";
      const bytes = utf8ByteLength(content);
      const want = budgetTokens(content);
      const got = f.frame.token_cost;
      if (got === want) return kept(f.line);
      return F.say(
        "cost-mismatch",
        { frame: frameAt(f), declared: got as Param, bytes, cost: want, miscount: miscount(got, content, bytes) },
        { lines: [f.line] },
      );
    });
  },
});
