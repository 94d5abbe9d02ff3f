import t from "tap";
import { codesKnown } from "./codes.ts";
import { type CheckDef } from "../../checks/kit/check.ts";
import type { TranscriptBuilder } from "./transcript.ts";
import { type Status } from "../../src/verdict/status.ts";
import { applyStrict } from "../../src/verdict/strict.ts";

export interface Case {
  name: string;
  build: () => TranscriptBuilder;
  status: Status;
  untestable?: boolean;
  /** Every pattern must match some evidence message (or, for skip, the reason). */
  says?: RegExp[];
  /** Codes some evidence must carry (qualified, as B3.cost-mismatch). */
  codes?: string[];
  /** Patterns no evidence message may match. */
  never?: RegExp[];
  /** The status under --strict, which promotes a SHOULD's warning and leaves one for an outcome stated with no keyword. */
  strict?: Status;
}

/** Table-driven check tests over canned transcripts. */
export function runCases(check: CheckDef, cases: Case[]): void {
  t.test(check.id, async (t) => {
    for (const c of cases) {
      t.test(c.name, async (t) => {
        const r = c.build().scoreWith(check);
        t.equal(r.status, c.status, `status is ${c.status}`);
        t.equal(r.untestable, c.untestable ?? false, "untestable flag");
        if (c.strict !== undefined) t.equal(applyStrict([r])[0]!.status, c.strict, `under --strict: ${c.strict}`);
        const text = [r.reason ?? "", ...r.evidence.map((e) => [e.message, e.expected, e.actual].join(" | "))].join("\n");
        for (const re of c.says ?? []) t.match(text, re);
        codesKnown(t, check, r);
        const codes = new Set(r.evidence.map((e) => e.code));
        for (const code of c.codes ?? []) t.ok(codes.has(code), `a finding coded ${code}`, { found: [...codes] });
        for (const re of c.never ?? []) t.notMatch(text, re);
        if (r.status !== "skip") t.ok(r.evidence.length > 0, "a verdict always carries evidence");
        for (const e of r.evidence.filter((e) => !e.ok && !e.untestable)) t.ok(e.lines.length > 0, "failing evidence points at transcript lines");
      });
    }
  });
}
