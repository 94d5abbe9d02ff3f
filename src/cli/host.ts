/**
 * `cgp-conform host [options] -- <host command line>`: run a host under
 * test through every scenario and score what it sent (host checks).
 */
import { HOST_CHECKS } from "../../checks/host/index.ts";
import { EXCLUDED } from "../../checks/excluded.ts";
import { HOST_PREFIX, type HostCheckDef } from "../../checks/kit/host.ts";
import { PLACEHOLDERS, SCENARIOS, type ScenarioSpec } from "../protocol/host-scenarios.ts";
import { parsePatterns, selectChecks } from "../engine/select.ts";
import { runHost } from "../host/run.ts";
import { vetListen } from "../host/peer.ts";
import { createServer } from "node:net";
import { scoreHost } from "../host/score.ts";
import { buildHostReport } from "../verdict/host-report.ts";
import { applyPolicy } from "../verdict/policy.ts";
import { toNdjson } from "../transcript/file.ts";
import { err, positive, UsageError } from "./io.ts";
import { checkOutputs, finishRun, gatingPolicy, readBaseline } from "./suite.ts";
import { TerminalProgress } from "./progress.ts";
import type { HostArgs } from "./host-options.ts";

/** The transport the command line asks for: by its placeholder, unless --transport says. */
export function transportOf(command: readonly string[], given: "stdio" | "http" | undefined): "stdio" | "http" {
  const joined = command.join(" ");
  const stdio = joined.includes(PLACEHOLDERS.provider);
  const http = joined.includes(PLACEHOLDERS.url);
  if (given) return given;
  if (stdio && http) throw new UsageError("the host command holds both {provider} and {url}: say which to serve with --transport stdio or --transport http");
  return http ? "http" : "stdio";
}

/**
 * --listen ADDR, vetted: an IP address of one peer, not loopback, and one
 * this machine holds (a server can listen only on its own addresses), tried
 * by binding a free port there before anything runs.
 */
async function listenOn(given: string): Promise<string> {
  const vetted = vetListen(given);
  if ("problem" in vetted) throw new UsageError(vetted.problem);
  const bound = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    const probe = createServer();
    probe.once("error", (e: NodeJS.ErrnoException) => resolve(e));
    probe.listen(0, vetted.address, () => probe.close(() => resolve(undefined)));
  });
  if (bound?.code === "EADDRNOTAVAIL")
    throw new UsageError(`--listen ${given}: no interface of this machine holds that address (EADDRNOTAVAIL); name one of its own, not loopback`);
  if (bound) throw new UsageError(`--listen ${given}: cannot listen there (${bound.code ?? bound.message})`);
  return vetted.address;
}

/** --only / --skip over host checks, matched by the id after host: (so H4, host:H4, C* and S2-* all work). */
function selectHost(a: HostArgs): HostCheckDef[] {
  const strip = (vs: string[] | undefined) =>
    vs?.map((v) =>
      v
        .split(",")
        .map((p) => p.trim().replace(/^host:/i, ""))
        .join(","),
    );
  const byShort = new Map(HOST_CHECKS.map((c) => [c.id.slice(HOST_PREFIX.length), c]));
  let selection;
  try {
    const only = strip(a.only);
    const skip = strip(a.skip);
    selection = selectChecks(
      [...byShort.keys()].map((id) => ({ id })),
      only ? parsePatterns(only) : undefined,
      skip ? parsePatterns(skip) : undefined,
      EXCLUDED,
      {},
    );
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (selection.unmatched.length > 0) throw new UsageError(`no host check matches ${selection.unmatched.join(", ")}; cgp-conform list shows them all`);
  if (selection.selected.length === 0) throw new UsageError("--only and --skip leave no host check to run");
  return selection.selected.map((s) => byShort.get(s.id)!);
}

/** The scenarios the selected checks read, in the declared order. */
function scenariosOf(checks: readonly HostCheckDef[]): ScenarioSpec[] {
  const wanted = new Set(checks.flatMap((c) => c.scenarios.map((s) => s.name)));
  return SCENARIOS.filter((s) => wanted.has(s.name));
}

export async function host(command: string[], a: HostArgs): Promise<number> {
  if (command.length === 0) throw new UsageError("no host command: give it after --, e.g. cgp-conform host -- ./my-host --provider {provider}");
  const transport = transportOf(command, a.transport);
  const checks = selectHost(a);
  const baseline =
    a.baseline === undefined
      ? undefined
      : readBaseline(
          a.baseline,
          HOST_CHECKS.map((c) => c.id),
          {},
        );
  checkOutputs(a);
  const timeoutMs = positive("timeout", a.timeout);
  const floorMs = positive("fault-timeout", a["fault-timeout"]);
  const startupMs = positive("startup-timeout", a["startup-timeout"]);
  if (a.listen !== undefined && transport !== "http")
    throw new UsageError(`--listen serves the scenarios of C4 and C7 over HTTP: the host command must hold ${PLACEHOLDERS.url}`);
  const listen = a.listen === undefined ? undefined : await listenOn(a.listen);
  const progress = process.stderr.isTTY && !a.json && !a.quiet ? new TerminalProgress(err, "scenarios") : undefined;
  const transcript = await runHost({
    command,
    transport,
    timeoutMs,
    floorMs,
    startupMs,
    scenarios: scenariosOf(checks),
    ...(listen !== undefined ? { listen } : {}),
    jobs: positive("jobs", a.jobs),
    ...(progress ? { progress } : {}),
  }).finally(() => progress?.stop());
  const report = applyPolicy(buildHostReport(transcript, scoreHost(transcript, checks)), gatingPolicy(a, baseline));
  return finishRun(report, toNdjson(transcript), a, `a host run of ${command.join(" ")}`);
}
