/**
 * The scenario provider reached in this process, for a host that runs in
 * this process too (the selftest's host modes): the same Session, the same
 * record, as a relay or the HTTP server would give, without a process per
 * scenario. The real path (a host process, a relay it spawns, an HTTP
 * server) is proven by the honest reference host on both transports.
 */
import { within, type Channel, type Received } from "../reference/host-channel.ts";
import { after, loopClock } from "../target/clock.ts";
import type { Bindings, HostTarget } from "../reference/host.ts";
import { HALF_LINE, type RunSecrets } from "../reference/scenarios.ts";
import { PROVIDER_PLACEHOLDERS, type ScenarioName } from "../protocol/host-scenarios.ts";
import type { HostEvent } from "../transcript/host.ts";
import { redact } from "../secret/redact.ts";
import { providerTag, Recorder, Session } from "./session.ts";

/** `p`, or "timeout" once the loop clock has advanced `ms` (none: as long as `p` takes). */
async function onLoopClock<T>(p: Promise<T>, ms: number | undefined): Promise<T | "timeout"> {
  if (ms === undefined) return within(p, undefined);
  const wait = after(ms, loopClock);
  try {
    return await Promise.race([p, wait.done.then(() => "timeout" as const)]);
  } finally {
    wait.cancel();
  }
}

/** A queue of what the provider sent, read one item at a time under a deadline. */
class Inbox {
  private readonly queue: Received[] = [];
  private wake: (() => void) | undefined;

  push(r: Received): void {
    this.queue.push(r);
    this.wake?.();
  }

  /**
   * The host's read deadline runs on the loop clock: the provider answers on
   * this thread, so time other cases held it is not time it failed to answer
   * (a wall-clock timer due while the thread was held fired before the
   * answer's I/O was read).
   */
  async next(ms: number | undefined): Promise<Received> {
    const ready = (): Promise<void> => (this.queue.length > 0 ? Promise.resolve() : new Promise<void>((r) => (this.wake = r)));
    const r = await onLoopClock(ready(), ms);
    this.wake = undefined;
    if (r === "timeout") return { kind: "timeout" };
    return this.queue.shift()!;
  }
}

export interface InProcessProvider {
  bindings: Bindings;
  /** The targets that reach the scenario's providers through `bindings`, first = {provider} ({url}). */
  targets: HostTarget[];
  /** The bound passed: whatever the host waits on ends now, as it would for a killed process. */
  cut(): void;
}

/** Where an in-process target leads: which of the scenario's providers, by the command or URL `targets` gave it. */
const IN_PROCESS = "(in process)";
const urlOf = (i: number): string => (i === 0 ? "http://127.0.0.1:1/" : `http://127.0.0.1:1/provider${i + 1}/`);

export function inProcessProvider(name: ScenarioName, secrets: RunSecrets, rec: Recorder, transport: "stdio" | "http" = "stdio", count = 1): InProcessProvider {
  const inboxes: Inbox[] = [];
  const indexOf = (key: string, all: string[]): number => Math.max(0, all.indexOf(key));
  const commands = Array.from({ length: count }, (_, i) => (i === 0 ? [IN_PROCESS] : [IN_PROCESS, PROVIDER_PLACEHOLDERS.stdio[i]]));
  const keys = commands.map((c) => JSON.stringify(c));
  const urls = Array.from({ length: count }, (_, i) => urlOf(i));
  const stdio = (command: readonly string[]): Channel => {
    const index = indexOf(JSON.stringify(command), keys);
    const tag = providerTag(index, count);
    rec.note({ note: "connected", reason: `the host started ${PROVIDER_PLACEHOLDERS.stdio[index]}`, ...tag });
    const session = new Session(name, secrets, rec, false, index, count);
    const inbox = new Inbox();
    inboxes.push(inbox);
    let ended = false;
    const exit = (code: number | null, reason: string): void => {
      if (ended) return;
      ended = true;
      rec.note({ note: "provider-exit", exitCode: code, reason, ...tag });
      inbox.push({ kind: "end", why: code === null ? "the provider was killed" : `the provider's output ended (exit status ${code})` });
    };
    return {
      send(text) {
        if (ended) return;
        for (const line of text.split("\n")) {
          if (ended) return;
          const r = session.receive(line);
          for (const l of r.lines) inbox.push({ kind: "line", text: l, overLong: false });
          if (r.crash) {
            rec.push({ dir: "provider", line: HALF_LINE, ...tag });
            inbox.push({ kind: "line", text: HALF_LINE, overLong: false });
            exit(1, "the scenario crashed mid-query: half a line written, then exit status 1");
          } else if (r.exit !== undefined) exit(r.exit, "shutdown");
        }
      },
      next: (ms) => inbox.next(ms),
      async close() {
        if (ended) return;
        rec.note({ note: "eof", reason: "the host closed the provider's input", ...tag });
        if (session.silent) exit(null, "the host killed it (it had stopped answering, and does not notice its input ending)");
        else exit(0, "end of input");
      },
      async kill() {
        exit(null, "the host killed it");
      },
    };
  };
  const http = (url: string, authorization: string | undefined): Channel => {
    const index = indexOf(url, urls);
    const session = new Session(name, secrets, rec, true, index, count);
    const tag = session.tag;
    const inbox = new Inbox();
    inboxes.push(inbox);
    let first = true;
    const auth: HostEvent["auth"] = authorization === undefined ? "none" : authorization === `Bearer ${secrets.token}` ? "run-token" : "other";
    return {
      send(text) {
        if (first) rec.note({ note: "connected", reason: `the host made its first request to ${PROVIDER_PLACEHOLDERS.http[index]}`, ...tag });
        first = false;
        if (session.s.requireToken && auth !== "run-token") {
          rec.push({ dir: "host", line: redact(text), bytes: Buffer.byteLength(text), auth, ...tag });
          rec.note({
            note: "unauthorized",
            reason: `refused with 401: the request's Authorization header ${auth === "none" ? "was absent" : "did not carry the run's bearer token"}`,
            ...tag,
          });
          inbox.push({ kind: "http-error", status: 401 });
          return;
        }
        const r = session.receive(text, { auth });
        if (r.crash) {
          rec.note({ note: "dropped", reason: "the scenario crashed mid-query: the connection was dropped without an answer", ...tag });
          inbox.push({ kind: "end", why: "the connection was dropped before an answer" });
        } else if (r.withhold) {
          // No answer, ever: the host waits as long as its deadline says.
        } else if (r.lines[0] === undefined) inbox.push({ kind: "none", status: 204 });
        else inbox.push({ kind: "line", text: r.lines[0], overLong: false, status: 200 });
      },
      next: (ms) => inbox.next(ms),
      async close() {},
      async kill() {},
    };
  };
  return {
    bindings: { stdio, http },
    targets:
      transport === "stdio"
        ? commands.map((command) => ({ kind: "stdio" as const, command }))
        : urls.map((url) => ({ kind: "http" as const, url, token: secrets.token })),
    cut() {
      // As the process group is killed at the bound: the provider ends with the host.
      if (inboxes.length > 0) rec.note({ note: "provider-exit", exitCode: null, reason: "killed with the host at the bound" });
      for (const i of inboxes) i.push({ kind: "end", why: "the run's bound on the scenario passed" });
    },
  };
}
