/**
 * What a session has received and not yet read, and the one wait for more:
 * src/probe/session.ts reads from it, its connection's events (src/probe/channel.ts) feed it.
 */
import type { Obj } from "../protocol/envelope.ts";
import { loopClock, type Clock } from "../target/clock.ts";

export type Item = { kind: "line"; env: Obj | undefined; replyTo?: number } | { kind: "end" } | { kind: "http-error"; why: string; replyTo: number };

export class Inbox {
  private readonly items: Item[] = [];
  private wakeUp: (() => void) | undefined;
  private ended = false;

  constructor(private readonly clock: Clock) {}

  get length(): number {
    return this.items.length;
  }

  shift(): Item | undefined {
    return this.items.shift();
  }

  /** Put an item back to be read first again (the end, which every later read sees too). */
  unshift(item: Item): void {
    this.items.unshift(item);
  }

  /** Add what arrived (the end only once), waking the wait. */
  push(item: Item): void {
    if (item.kind === "end") {
      if (this.ended) return;
      this.ended = true;
    }
    this.items.push(item);
    this.wake();
  }

  /** End the wait now (the run was aborted). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Wait up to `ms` of wall time for an item (on the loop clock, the caller waits again for what the clock has not yet counted). */
  wait(ms: number): Promise<void> {
    const release = this.clock === loopClock ? loopClock.hold() : undefined;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = undefined;
        release?.();
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        release?.();
        resolve();
      };
    });
  }
}
