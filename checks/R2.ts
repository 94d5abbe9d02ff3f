import { defineCheck, notSent } from "./kit/check.ts";
import { findings, type Param } from "./kit/findings.ts";
import { SHUTDOWN } from "../src/protocol/probes.ts";

const EXPECTED = "the provider exits by itself with status 0";
type Exit = { exit_code: Param; signal: Param };
const ended = (p: Exit): string => (p.signal ? `signal ${p.signal}` : `exit status ${p.exit_code}`);

const F = findings({
  "still-running": {
    says: (p: { reason: string; killed_at: number | null }) => `the provider was still running after shutdown (${p.reason}), so cgp-conform killed it`,
    expected: () => EXPECTED,
    actual: (p: { killed_at: number | null }) => (p.killed_at !== null ? `killed at ${p.killed_at} ms` : "no exit"),
  },
  "exited-early": {
    says: () => "the provider exited before shutdown was sent",
    expected: () => EXPECTED,
    actual: (p: Exit) => `exit code ${p.exit_code}, signal ${p.signal}`,
  },
  "clean-exit": { ok: true, says: (p: { after: number }) => `the provider exited with status 0, ${p.after} ms after shutdown` },
  "unclean-exit": {
    says: (p: Exit & { after: number }) => `the provider ended ${p.after} ms after shutdown with ${ended(p)}`,
    expected: () => EXPECTED,
    actual: (p: Exit) => ended(p),
  },
});

/**
 * @anchor R2
 * Stimulus: shutdown after a completed handshake (probe shutdown); the
 * provider must exit by itself, with status 0, within the grace period
 * (the per-exchange timeout).
 */
export default defineCheck({
  findings: F.table,
  id: "R2",
  title: "Provider exits cleanly on shutdown",
  level: "MUST",
  requirement: "A provider MUST tear down cleanly on shutdown.",
  probes: [SHUTDOWN],
  score({ probe, transport }) {
    if (transport === "http")
      return { skip: 'stdio only: over HTTP a provider that gets shutdown "expects no further requests"; there is no process whose exit to watch' };
    const p = probe(SHUTDOWN);
    const sent = p.sent(SHUTDOWN.steps.shutdown)[0];
    if (!sent) return notSent(p.name, "shutdown");
    const exit = p.exit();
    const killed = p.notes("killed")[0];
    if (killed || !exit) {
      return [
        F.say(
          "still-running",
          { reason: killed?.reason ?? "no exit observed", killed_at: killed ? killed.t : null },
          { lines: [sent.n, ...(killed ? [killed.n] : []), ...(exit ? [exit.n] : [])] },
        ),
      ];
    }
    const how: Exit = { exit_code: exit.exitCode as Param, signal: exit.signal as Param };
    if (exit.n < sent.n) return [F.say("exited-early", how, { lines: [exit.n, sent.n] })];
    const after = exit.t - p.events.find((e) => e.n === sent.n)!.t;
    if (exit.exitCode === 0 && !exit.signal) return [F.say("clean-exit", { after }, { lines: [sent.n, exit.n] })];
    return [F.say("unclean-exit", { ...how, after }, { lines: [sent.n, exit.n] })];
  },
});
