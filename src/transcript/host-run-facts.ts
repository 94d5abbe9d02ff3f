/**
 * The facts of a host run that decide whether it could be made, typed and
 * kept in the host transcript's header (`run_facts`), as a provider run's are
 * (run-facts.ts): the host run writes them once, from what it recorded, and
 * the report reads them. Beside them in the header: `interrupted`, and
 * `scenarios` (which ran). A host transcript saved before the header held
 * them gets the same facts derived from its events when it is read.
 */
import { isObj } from "../protocol/envelope.ts";
import type { HostEvent, HostRunFacts, ScenarioRecord } from "./host.ts";

export type { HostRunFacts } from "./host.ts";

/** The run's facts, from its scenarios and events as recorded. */
export function deriveHostRunFacts(scenarios: readonly ScenarioRecord[], events: readonly HostEvent[]): HostRunFacts {
  const ran = scenarios.filter((s) => s.skipped === undefined).map((s) => s.name);
  if (ran.length === 0) return {};
  const of = (name: string) => events.filter((e) => e.scenario === name);
  const spawn = ran.map((n) => of(n).find((e) => e.note === "spawn-error")).filter((e) => e !== undefined);
  if (spawn.length === ran.length) return { never_started: { how: "spawn-error", error: (spawn[0]!.reason ?? "").split("\n")[0]! } };
  const unstarted = ran.map((n) => {
    const ev = of(n);
    const exit = ev.find((e) => e.note === "host-exit");
    return !ev.some((e) => e.dir === "host") && (exit?.exitCode === 126 || exit?.exitCode === 127) ? exit.exitCode : undefined;
  });
  if (unstarted.every((c) => c !== undefined)) return { never_started: { how: "exit", exit_code: unstarted[0]! } };
  if (ran.every((n) => !of(n).some((e) => e.note === "connected"))) return { never_connected: true };
  return {};
}

/** Read a host header's `run_facts` as strictly as an event, or `bad` names what is wrong. */
export function checkHostRunFacts(v: unknown, bad: (why: string) => never): HostRunFacts {
  if (!isObj(v)) return bad("run_facts must be an object");
  for (const k of Object.keys(v)) if (k !== "never_started" && k !== "never_connected") bad(`run_facts.${k} is not a fact this tool records`);
  const out: HostRunFacts = {};
  if (v.never_connected !== undefined) {
    if (v.never_connected !== true) bad("run_facts.never_connected must be true when present");
    out.never_connected = true;
  }
  const s = v.never_started;
  if (s === undefined) return out;
  const keys = isObj(s) && s.how === "exit" ? ["how", "exit_code"] : ["how", "error"];
  if (isObj(s)) for (const k of Object.keys(s)) if (!keys.includes(k)) bad(`run_facts.never_started.${k} is not a member this tool records`);
  if (isObj(s) && s.how === "spawn-error" && typeof s.error === "string") out.never_started = { how: "spawn-error", error: s.error.split("\n")[0]! };
  else if (isObj(s) && s.how === "exit" && (s.exit_code === 126 || s.exit_code === 127)) out.never_started = { how: "exit", exit_code: s.exit_code };
  else bad("run_facts.never_started must be { how: spawn-error, error } or { how: exit, exit_code: 126 or 127 }");
  return out;
}
