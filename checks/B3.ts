import { defineCheck } from "./kit/check.ts";
import { budgetTokens, utf8ByteLength } from "../src/math/budget.ts";
import { frameName, perFrame } from "./kit/answers.ts";
import { representationOf } from "./kit/representation.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/**
 * What the declared cost is, when it is a known miscount of the content: a
 * hint that leads to the fix. Said only when it holds: the declared number is
 * exactly what that miscount gives.
 */
function miscount(got: unknown, content: string, bytes: number): string {
  if (typeof got !== "number") return "";
  const units = content.length;
  const points = [...content].length;
  // Without astral characters the two counts agree, and either miscount gives the number: name both, so neither reader is misled.
  if (units !== bytes && units === points && got === Math.ceil(units / 4))
    return ` (${got} is ceil(${units}/4) over its ${units} characters, as code points or UTF-16 code units alike: counting characters is not counting bytes)`;
  if (units !== bytes && got === Math.ceil(units / 4))
    return ` (${got} is ceil(${units}/4) over its ${units} UTF-16 code units: counting those is not counting bytes)`;
  if (points !== bytes && points !== units && got === Math.ceil(points / 4))
    return ` (${got} is ceil(${points}/4) over its ${points} code points: counting those is not counting bytes)`;
  if (got === Math.floor(bytes / 4)) return ` (${got} is floor(${bytes}/4): the count rounds up)`;
  return "";
}

/**
 * @anchor B3
 * Stimulus: every full frame served to probes sample-query and budget-squeeze
 * (compact and reference frames are P4's). Equality is exact: "A provider
 * cannot 'disagree' with a byte count."
 */
export default defineCheck({
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
      if (got === want) return { ok: true, message: "", lines: [f.line] };
      return {
        ok: false,
        message:
          `${frameName(f)} declares token_cost ${show(got)} but its content is ${bytes} UTF-8 bytes → ceil(${bytes}/4) = ${want}` +
          miscount(got, content, bytes),
        expected: String(want),
        actual: show(got),
        lines: [f.line],
      };
    });
  },
});
