/** The loop clock counts the time the thread was free to run: a gap between ticks longer than a step is the thread held. */
import t from "tap";
import { after, BUSY_SHARE, loopClock, MAX_STEP_MS, stepClock, type Clock } from "../../src/target/clock.ts";

t.test("each gap between ticks counts, up to one step; a longer one counts one step", async (t) => {
  let wall = 1000;
  const c = stepClock(() => wall);
  t.equal(c.now(), 0);
  wall += 15;
  c.tick();
  wall += 10;
  t.equal(c.now(), 25, "short gaps count whole");
  wall += 5000;
  t.equal(c.now(), 25 + MAX_STEP_MS, "five seconds the thread was held count as one step");
  wall -= 100;
  t.equal(c.now(), 25 + MAX_STEP_MS, "a clock that steps back counts nothing");
});

t.test("with the loop's idle time measured, a gap counts no more of itself than the loop spent idle", async (t) => {
  let wall = 0;
  let idle = 0;
  const c = stepClock(
    () => wall,
    () => idle,
  );
  wall += 20;
  idle += 8;
  t.equal(c.now(), 8, "busy 12 ms of a 20 ms gap with other work: 8 ms count");
  wall += 20;
  idle += 20;
  t.equal(c.now(), 28, "an idle gap counts whole");
  wall += 5000;
  idle += 5000;
  t.equal(c.now(), 28 + MAX_STEP_MS, "a long gap still counts one step at most");
  wall += 20;
  t.equal(c.now(), 28 + MAX_STEP_MS + 20 * BUSY_SHARE, "a gap spent all busy counts its share, so a wait still ends");
});

t.test("a wait on a clock ends when that clock has advanced its length, not when wall time has", async (t) => {
  let at = 0;
  const still: Clock = { now: () => at };
  let ended = false;
  const w = after(30, still);
  void w.done.then(() => (ended = true));
  // Wall time passes while the clock stands still: the wait's timer fires and is set again.
  await new Promise((r) => setTimeout(r, 80));
  t.notOk(ended, "the clock had not moved: the wait goes on");
  at = 30;
  await w.done;
  t.ok(ended);
});

t.test("a cancelled wait never ends, and the loop clock ticks only while held", async (t) => {
  let ended = false;
  const w = after(10, loopClock);
  void w.done.then(() => (ended = true));
  w.cancel();
  await new Promise((r) => setTimeout(r, 50));
  t.notOk(ended);
  const release = loopClock.hold();
  const before = loopClock.now();
  await new Promise((r) => setTimeout(r, 50));
  t.ok(loopClock.now() > before, "held, it advances as the thread idles");
  release();
  release();
});
