/**
 * The reference host's driver: it reaches each of its providers (a child on
 * stdio, requests over HTTP; or the stand-ins a test binds), runs every
 * exchange at once, composes what the round came to into the context block
 * and usage report it was told to write, takes the second turn where a verify
 * was answered or a held frame outlived its stated validity, and lets each
 * provider go. The exchange with one provider is
 * host-exchange.ts's; the plumbing is host-stdio.ts's and host-http.ts's.
 */
import { appendFileSync } from "node:fs";
import { providerName } from "../protocol/caps.ts";
import type { Obj } from "../protocol/envelope.ts";
import { HOST_ENV } from "../protocol/host-scenarios.ts";
import type { Channel } from "./host-channel.ts";
import { SHUTDOWN_GRACE_MS, shown, type HostTarget, type RefHost, type Round } from "./host-contract.ts";
import { exchange, fail, type Outcome } from "./host-exchange.ts";
import { openHttp } from "./host-http.ts";
import { openStdio } from "./host-stdio.ts";
import { secondTurn, type Turn } from "./host-verify.ts";

/** How the host reaches a provider: a child on stdio, requests over HTTP (the real ones), or a stand-in for either (in-process tests). */
export interface Bindings {
  stdio(command: readonly string[]): Channel;
  /** `ca`: PEM of a CA to trust for https://, beside the system's roots. */
  http(url: string, authorization: string | undefined, ca?: string): Channel;
}

const BINDINGS: Bindings = {
  stdio: (command) => openStdio(command),
  http: (url, authorization, ca) => openHttp(url, authorization, ca === undefined ? {} : { ca }),
};

/** The bearer token for an HTTP target: given, or from the environment. */
function tokenFor(target: Extract<HostTarget, { kind: "http" }>): string | undefined {
  const t = "token" in target ? target.token : process.env[HOST_ENV.token];
  return t === "" ? undefined : t;
}

/** Reach one provider: its channel, or the ending of a target refused before anything was sent. */
function open(h: RefHost, target: HostTarget, bindings: Bindings): Channel | number {
  try {
    if (target.kind === "stdio") return bindings.stdio(target.command);
    // The transport decides on the URL alone, before any byte leaves: C7 first, then C4.
    const refused = h.transportRefusal(target.url) ?? h.remoteRefusal(target.url);
    if (refused) return fail(h, refused.code, refused.message, "close").code;
    const token = tokenFor(target);
    // RFC 6750's b64token is visible ASCII: anything else would break the header, and an error about it could show it. The value is never shown.
    if (token !== undefined && !/^[\x21-\x7e]+$/.test(token))
      return fail(h, "bad_token", `${HOST_ENV.token} holds characters a bearer token cannot carry`, "close").code;
    return bindings.http(target.url, token === undefined ? undefined : h.authorization(token), target.ca);
  } catch (e) {
    return fail(h, "unreachable", shown((e as Error).message), "close").code;
  }
}

/** Append one line of JSON to a file the host was given; a file it cannot write is reported, and the work goes on. */
function appendLine(h: RefHost, path: string | undefined, value: Obj): void {
  if (path === undefined || path === "") return;
  try {
    appendFileSync(path, `${JSON.stringify(value)}\n`);
  } catch (e) {
    h.log(`reference-host: could not write to ${shown(path)}: ${shown((e as NodeJS.ErrnoException).code ?? (e as Error).message)}`);
  }
}

/**
 * Run a reference host (honest or with a defect) against its providers, all
 * at once: each exchange, then the round's context block and usage report
 * written where it was told to, then each provider let go (shutdown, its
 * input closed, at most SHUTDOWN_GRACE_MS to exit, then killed). Resolves
 * with the host's exit status: 0 when all the work was done, 1 when any of
 * it was refused or failed.
 */
export async function runHost(h: RefHost, target: HostTarget | readonly HostTarget[], bindings: Bindings = BINDINGS): Promise<number> {
  const targets = Array.isArray(target) ? target : [target as HostTarget];
  const rounds: Round[] = targets.map(() => ({ queried: false, frames: [], rejected: 0 }));
  const channels = targets.map((t) => open(h, t, bindings));
  const outcomes = await Promise.all(
    channels.map(async (ch, i): Promise<Outcome> => {
      if (typeof ch === "number") return { code: ch, end: "close" };
      try {
        return await exchange(h, ch, rounds[i]!);
      } catch (e) {
        h.log(`reference-host: error internal: ${shown((e as Error).message)}`);
        return { code: 1, end: "kill" };
      }
    }),
  );
  const queried = rounds.filter((r): r is Round & { ack: Obj } => r.queried && r.ack !== undefined);
  const compose = (rs: ReadonlyArray<{ ack: Obj; frames: Obj[] }>, reports: Array<Round & { ack: Obj }>): void => {
    const held = rs.flatMap((r) => r.frames.map((frame) => ({ provider_id: providerName(r.ack) ?? "(unnamed)", frame })));
    if (held.length > 0) appendLine(h, h.contextPath, { text: h.compose(held) });
    if (reports.length > 0) appendLine(h, h.usagePath, h.usageReport(reports, new Date().toISOString()));
  };
  if (queried.length > 0) compose(queried, queried);
  // A second turn only where a verify was answered, or a held frame outlived its stated validity: else the host's one piece of work is done.
  const now = Date.now();
  if (rounds.some((r) => r.verdicts !== undefined || (r.queried && h.outlived(r, now)))) {
    const turns = await Promise.all(
      rounds.map(async (r, i) => {
        const ch = channels[i]!;
        const o = outcomes[i]!;
        if (typeof ch === "number" || o.code !== 0 || o.end !== "shutdown" || !r.queried || r.ack === undefined) return undefined;
        const turn = await secondTurn(h, ch, r as Round & { ack: Obj });
        if (turn.outcome) outcomes[i] = turn.outcome;
        return turn;
      }),
    );
    const done = turns.filter((t): t is Turn => t !== undefined);
    if (done.length > 0)
      compose(
        done.map((t) => ({ ack: t.again.ack, frames: [...t.kept, ...t.again.frames] })),
        done.filter((t) => t.again.queried).map((t) => t.again),
      );
  }
  await Promise.all(
    channels.map(async (ch, i) => {
      if (typeof ch === "number") return;
      const outcome = outcomes[i]!;
      if (outcome.end === "kill") await ch.kill();
      else {
        if (outcome.end === "shutdown") ch.send(h.serialize({ type: "shutdown" }));
        await ch.close(SHUTDOWN_GRACE_MS);
      }
    }),
  );
  return Math.max(...outcomes.map((o) => o.code));
}
