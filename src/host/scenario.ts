/**
 * One scenario of a host run: its providers served (over relays or HTTP, or
 * in this process), the host run against them (a process spawned from the
 * command line, or a host in this process), its end bounded, and what it
 * printed and wrote recorded. Every wait is bounded: a host that does not end
 * within the bound is killed with its whole process group (which holds the
 * relay too). The loop over scenarios, and the transcript, are run.ts's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import type { RunSecrets } from "../reference/scenarios.ts";
import { within } from "../reference/host-channel.ts";
import type { ScenarioName, ScenarioSpec } from "../protocol/host-scenarios.ts";
import { redact } from "../secret/redact.ts";
import { killGroup, track, trackDir, untrack, untrackDir } from "../target/reaper.ts";
import { loopClock } from "../target/clock.ts";
import type { Recorder } from "./session.ts";
import { makeFiles, recordFiles, type HostFiles } from "./files.ts";
import { inProcessProvider } from "./inproc.ts";
import { runAuthority, serverCertificate, STAND_IN_ADDRESS, urlHost } from "./peer.ts";
import type { HostRunOptions, InProcessHost } from "./options.ts";
import { expand, hostEnv } from "./command.ts";
import { serveStdio } from "./serve-stdio.ts";
import { serveHttp } from "./serve-http.ts";
import { captureOutput, printedLines } from "./capture.ts";
import { boundFromContact, scenarioBound, scenarioBoundMs } from "./bound.ts";
import { tokenForms } from "./secrets.ts";

/** How long the relay may take to deliver its last words after the host has ended. */
const SETTLE_MS = 300;

/** One scenario with the host in this process: its output lines recorded as a process's would be, its end bounded the same way. */
async function runInProcess(spec: ScenarioSpec, o: HostRunOptions & { inProcess: InProcessHost }, secrets: RunSecrets, rec: Recorder): Promise<void> {
  const provider = inProcessProvider(spec.name as ScenarioName, secrets, rec, o.transport, spec.providers ?? 1);
  const forms = tokenForms(secrets);
  const dir = mkdtempSync(join(tmpdir(), "cgp-conform-host-"));
  trackDir(dir);
  try {
    const files = makeFiles(dir);
    await hostInProcess(spec, o, provider, files, forms, rec);
    recordFiles(files, rec, forms);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    untrackDir(dir);
  }
}

async function hostInProcess(
  spec: ScenarioSpec,
  o: HostRunOptions & { inProcess: InProcessHost },
  provider: ReturnType<typeof inProcessProvider>,
  files: HostFiles,
  forms: Array<[string, string]>,
  rec: Recorder,
): Promise<void> {
  const output = printedLines(rec, forms);
  const line = output.line;
  let targets = provider.targets;
  // A scenario that needs a non-loopback peer gets a URL on one: nothing serves it, and nothing goes there (the bindings are the stand-in's).
  if (spec.listen && o.transport === "http") {
    const url = `${spec.listen}://${urlHost(o.listen ?? STAND_IN_ADDRESS)}:1/`;
    targets = targets.map((target, i) => (i === 0 && target.kind === "http" ? { ...target, url } : target));
    rec.note({
      note: "listening",
      url,
      reason: "the scenario provider is reached in this process, through a stand-in: nothing serves this URL, and nothing is sent there",
    });
  }
  const ms = scenarioBoundMs(spec, o);
  // The host and its provider answer on this process's thread: what other work held it is not the host's time.
  const bound = scenarioBound(ms, o, loopClock);
  // A host that throws ends as a process that crashed would: with status 1.
  const run = o
    .inProcess({ target: targets[0]!, targets, files, bindings: provider.bindings, consent: spec.consent, print: line("stdout"), log: line("stderr") })
    .catch(() => 1);
  const outcome = await Promise.race([run, bound.reached]);
  bound.clear();
  if (outcome === "interrupted") {
    output.close();
    provider.cut();
  } else if (outcome === "hang") {
    rec.note({ note: "host-timeout", waitedMs: ms, reason: `the host did not end within ${ms} ms: it was stopped` });
    output.close();
    provider.cut();
    // A host that still does not return once everything it waited on has ended is left behind, not waited for.
    await Promise.race([run, new Promise((r) => setTimeout(r, 2000).unref())]);
  } else rec.note({ note: "host-exit", exitCode: outcome, signal: null });
}

/** One scenario, its record begun in `rec`: with the host in this process where the run (or, for a non-loopback peer, its stand-in) says so, else as a process. */
export async function runScenario(spec: ScenarioSpec, o: HostRunOptions, secrets: RunSecrets, rec: Recorder): Promise<void> {
  rec.begin(spec.name);
  if (o.inProcess) return runInProcess(spec, { ...o, inProcess: o.inProcess }, secrets, rec);
  if (spec.listen && o.listen === undefined && o.standIn) return runInProcess(spec, { ...o, inProcess: o.standIn }, secrets, rec);
  const dir = mkdtempSync(join(tmpdir(), "cgp-conform-host-"));
  trackDir(dir);
  const name = spec.name as ScenarioName;
  const peer =
    spec.listen && o.listen !== undefined ? { address: o.listen, ...(spec.listen === "https" ? { tls: await serverCertificate(o.listen) } : {}) } : undefined;
  const count = spec.providers ?? 1;
  const served = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      o.transport === "stdio" ? serveStdio(name, secrets, rec, dir, i, count) : serveHttp(name, secrets, rec, i, count, peer),
    ),
  );
  // The run's CA, in every scenario, so that a command holding {ca} means the same in each.
  const ca = join(dir, "ca.pem");
  writeFileSync(ca, (await runAuthority()).cert, { mode: 0o600 });
  const files = makeFiles(dir);
  const forms = tokenForms(secrets);
  const first = served[0]!.values;
  const providers = served.flatMap((s) => (s.values.provider ? [s.values.provider] : []));
  const urls = served.flatMap((s) => (s.values.url ? [s.values.url] : []));
  const argv = expand(o.command, { ...first, providers, urls, token: secrets.token, consent: spec.consent ?? "none", ca, ...files });
  const env = hostEnv(spec, { token: secrets.token, ca, files, first, providers, urls });
  let spawned: number | undefined;
  const contacted = rec.contact();
  try {
    const child = execa(argv[0]!, argv.slice(1), {
      env,
      extendEnv: true,
      detached: true,
      buffer: false,
      reject: false,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      forceKillAfterDelay: false,
      windowsHide: true,
    });
    const pid = child.pid;
    spawned = pid;
    if (pid !== undefined) track(pid);
    const outputs = Promise.all([captureOutput(child.stdout, "stdout", rec, forms), captureOutput(child.stderr, "stderr", rec, forms)]);
    const ms = scenarioBoundMs(spec, o);
    const bound = o.startupMs === undefined ? scenarioBound(ms, o) : boundFromContact(ms, o.startupMs, o, contacted);
    // The host's end is its process's exit, not the close of its pipes: a provider it started may hold those open after it exits.
    const exited = new Promise<{ code: number | null; signal: string | null } | { error: string }>((resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }));
      child.once("error", (e) => resolve({ error: e.message }));
    });
    const outcome = await Promise.race([exited, bound.reached]);
    bound.clear();
    if (outcome === "interrupted") {
      if (pid !== undefined) killGroup(pid);
    } else if (outcome === "hang" || outcome === "no-contact") {
      const waitedMs = outcome === "hang" ? ms : o.startupMs!;
      const what =
        outcome === "hang"
          ? `did not end within ${ms} ms${o.startupMs === undefined ? "" : " of reaching its provider"}`
          : `reached no provider within ${waitedMs} ms`;
      rec.note({
        note: "host-timeout",
        waitedMs,
        ...(outcome === "no-contact" ? { contact: false } : {}),
        reason: `the host ${what}: it and its process group were killed`,
      });
      if (pid !== undefined) killGroup(pid);
    } else if (pid === undefined || "error" in outcome) {
      const r = await Promise.race([child, new Promise<undefined>((res) => setTimeout(() => res(undefined), 2000).unref())]);
      rec.note({ note: "spawn-error", reason: redact(r?.shortMessage ?? r?.message ?? ("error" in outcome ? outcome.error : "spawn failed")) });
    } else {
      rec.note({ note: "host-exit", exitCode: outcome.code, signal: outcome.signal });
    }
    // What it printed last, read for at most a second more; then its process group (its provider, a relay, anything it left) is killed.
    // within() clears its timer when what it waits for ends first: left running, the last scenario's held the run open.
    await within(outputs, 1000);
    // The relay's last words (its exit, its end of input) arrive just after the host ends.
    await within(Promise.all(served.map((s) => s.idle())), SETTLE_MS);
    setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, 1000).unref();
    if (pid !== undefined) killGroup(pid);
    await Promise.race([child, new Promise((r) => setTimeout(r, 2000).unref())]);
  } finally {
    // Whatever happened above, the host's process group (its provider, the relay, anything it left) does not outlive the scenario.
    if (spawned !== undefined) {
      killGroup(spawned);
      untrack(spawned);
    }
    await Promise.all(served.map((s) => s.close()));
    recordFiles(files, rec, forms);
    rmSync(dir, { recursive: true, force: true });
    untrackDir(dir);
  }
}
