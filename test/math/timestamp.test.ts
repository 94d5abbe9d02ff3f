import t from "tap";
import { isProfileTimestamp } from "../../src/math/timestamp.ts";

const good = ["2026-07-20T18:00:00Z", "2026-07-20T18:00:00.5Z", "2026-07-20T18:00:00.123456789Z"];
const bad = [
  "2026-07-20T18:00:00+00:00", // numeric offset
  "2026-07-20t18:00:00Z", // lowercase t
  "2026-07-20T18:00:00z", // lowercase z
  "2026-07-20 18:00:00Z", // space separator
  "2026-07-20T18:00Z", // no seconds
  "2026-07-20T18:00:00.Z", // empty fraction
  "2026-07-20T18:00:00", // no zone
  "2026-07-20", // date only
  " 2026-07-20T18:00:00Z", // padded
  "2026-07-20T18:00:00Z\n", // trailing newline
];

for (const s of good) t.ok(isProfileTimestamp(s), `accepts ${JSON.stringify(s)}`);
for (const s of bad) t.notOk(isProfileTimestamp(s), `rejects ${JSON.stringify(s)}`);
t.notOk(isProfileTimestamp(1721498400), "rejects a number");
