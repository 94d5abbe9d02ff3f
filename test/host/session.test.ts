import t from "tap";
import { MAX_NOTES, Recorder } from "../../src/host/session.ts";

t.test("the notes cap never drops how the host ended", async (t) => {
  const rec = new Recorder();
  rec.begin("bearer-token");
  for (let i = 0; i < MAX_NOTES + 100; i++) rec.note({ note: "unauthorized", reason: "refused with 401" });
  rec.note({ note: "host-timeout", waitedMs: 10_000 });
  const notes = rec.events.filter((e) => e.dir === "note");
  t.equal(notes.filter((e) => e.note === "unauthorized").length, MAX_NOTES, "repeats stop at the cap");
  t.equal(notes.filter((e) => e.note === "over-cap").length, 1, "one note says so");
  t.equal(notes.filter((e) => e.note === "host-timeout").length, 1, "the host's ending is kept past it");
});
