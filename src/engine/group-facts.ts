/**
 * What a group of sessions shows of its provider, read off what it recorded:
 * whether a session died on its first well-formed request, why no other
 * session should start after the first, and a group never started, each
 * probe recorded as not run and why. src/engine/record.ts acts on them.
 */
import type { RecordedEvent } from "../probe/session-types.ts";
import { HANDSHAKE_STEP, START_STEP } from "../protocol/probes.ts";
import { culpritIn } from "../transcript/crash.ts";
import type { Group } from "./plan.ts";

/** A request meant to be well-formed: not the handshake, not one of R1's bad requests. */
const wellFormed = (e: RecordedEvent): boolean => e.dir === "send" && e.step !== HANDSHAKE_STEP && !e.aim?.rules.includes("R1");

/**
 * Whether a session died (or wedged) on the first well-formed request it
 * sent: twice in a row, and every request kills the provider, so a third
 * session would show nothing new.
 */
export function diedOnFirstRequest(events: readonly RecordedEvent[]): boolean {
  const blamed = culpritIn(events);
  return blamed !== undefined && wellFormed(blamed) && events.find(wellFormed) === blamed;
}

/** Why no other session should start, when the first was never answered: the provider never started, or never completed its handshake. */
export function scoutFailure(g: Group, r: { events: RecordedEvent[]; silent: boolean; silentEnd: boolean; answered: boolean }): string | undefined {
  if (r.answered) return undefined;
  const sessions = [...new Set(r.events.map((e) => e.session))];
  const where = sessions.length > 1 ? `in ${sessions.length} sessions (${sessions.join(", ")})` : `in session ${g.name}`;
  if (r.silent && r.silentEnd) return `the provider ended without writing a line ${where}, so no other session was started`;
  return `the provider did not complete the handshake ${where}, so no other session was started`;
}

/** A group never started, each probe recorded as not run and why. */
export function abandonedGroup(
  g: Group,
  reason: string,
): { events: RecordedEvent[]; sessions: Array<[string, string[]]>; silent: boolean; silentEnd: boolean; answered: boolean } {
  return {
    events: g.probes.map((p) => ({ probe: p.name, session: g.name, t: 0, dir: "note" as const, step: START_STEP, note: "abandoned" as const, reason })),
    sessions: [[g.name, g.probes.map((p) => p.name)]],
    silent: true,
    silentEnd: false,
    answered: false,
  };
}
