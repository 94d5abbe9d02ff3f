import { defineCheck, site, type Evidence } from "./kit/check.ts";
import { isProfileTimestamp } from "../src/math/timestamp.ts";
import { everyFrame, frameAt, framed, kept, SERVED_ELSEWHERE, type FrameAt, type Kept, type ServedFrame } from "./kit/answers.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

const FIELDS = ["valid_from", "valid_to", "recorded_at"] as const;

const F = findings({
  "off-profile": {
    // Which members, broken which way (an offset, a space, a lowercase t): their values with the digits blanked.
    apart: (p: { members: { [k: string]: Param }[] }) => p.members.map((m) => `${m.name} ${show(m.value).replace(/\d/g, "#")}`),
    says: (p: { frame: FrameAt; members: { [k: string]: Param }[] }) =>
      `${framed(p.frame)} has ${p.members.map((m) => `${m.name} ${show(m.value)}`).join(", ")} outside the profile (uppercase T and Z, UTC, seconds required)`,
    expected: () => 'YYYY-MM-DDTHH:MM:SS(.f+)?Z, e.g. "2026-07-20T18:00:00Z"',
    actual: (p: { members: { [k: string]: Param }[] }) => p.members.map((m) => show(m.value)).join(", "),
  },
});

function judge(f: Pick<ServedFrame, "frame" | "index" | "line">): Evidence | Kept | undefined {
  const present = FIELDS.filter((k) => f.frame[k] !== undefined && f.frame[k] !== null);
  if (present.length === 0) return undefined;
  const bad = present.filter((k) => !isProfileTimestamp(f.frame[k]));
  if (bad.length === 0) return kept(f.line);
  return F.say(
    "off-profile",
    { frame: frameAt(f), members: bad.map((k) => ({ name: k, value: f.frame[k] as Param })) },
    // The schema's pattern is this profile: its violation at the same member is this finding, said once.
    { lines: [f.line], judges: bad.map((k) => site(f.line, `/result/frames/${f.index}/${k}`)) },
  );
}

/**
 * @anchor F4
 * Stimulus: every frame served to probes sample-query and budget-squeeze.
 * Every other frames envelope received, in any probe that ran, is judged
 * too, its failures only: each timestamp outside the profile is one F4
 * finding wherever it was served, never a bare schema violation beside it.
 * (as_of travels host → provider only; cgp-conform sends none here.)
 */
export default defineCheck({
  findings: F.table,
  id: "F4",
  title: "Frame timestamps use the strict UTC profile",
  level: "MUST",
  requirement: "valid_from, valid_to, recorded_at, and as_of MUST match YYYY-MM-DDTHH:MM:SS(.f+)?Z.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  observes: SERVED_ELSEWHERE,
  score: ({ probe }) => everyFrame(probe, "carry only profile timestamps", judge),
});
