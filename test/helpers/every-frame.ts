/**
 * A frame rule held over every frame received: one value breaking it is one
 * finding, the rule's, wherever the frame was served (the two probes it
 * scores, another probe, a frames envelope no query was answered by), and
 * never a schema violation beside it.
 */
import type { Test } from "tap";
import type { CheckDef } from "../../checks/kit/check.ts";
import { frame, frames, query, served, type TranscriptBuilder } from "./transcript.ts";

const PLACES: Array<[string, (bad: Record<string, unknown>) => TranscriptBuilder]> = [
  ["sample-query", (bad) => served([frame(bad)])],
  [
    "another probe",
    (bad) =>
      served([frame()])
        .probe("kinds-query")
        .handshake()
        .send("kinds-1", query("k1"))
        .recv(frames("k1", [frame(bad)])),
  ],
  ["a frames envelope no query was answered by", (bad) => served([frame()]).recv(frames("x", [frame(bad)]))],
];

/** Each `member: value` of `bad` breaks the rule; `words(member, value)` is what the one finding says. */
export function oneFindingEverywhere(
  t: Test,
  check: CheckDef,
  bad: Array<[string, unknown]>,
  words: (member: string, value: unknown) => string | RegExp,
): void {
  for (const [member, value] of bad) {
    for (const [where, build] of PLACES) {
      const r = build({ [member]: value }).scoreWith(check);
      const failing = r.evidence.filter((e) => !e.ok);
      const what = `${member} ${JSON.stringify(value)}, ${where}`;
      t.equal(r.status, "fail", `${what}: fails`);
      t.same(
        failing.map((e) => e.message.replace(/ \(result.*/, "")),
        [`frame "frm_1"`],
        `${what}: one finding, in ${check.id}'s words`,
      );
      t.match(failing[0]?.message, words(member, value), `${what}: says what broke`);
      for (const e of r.evidence) t.notOk("judges" in e || "site" in e, "scoring data stays out of the report");
    }
  }
}
