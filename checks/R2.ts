import { defineCheck, notSent } from "./kit/check.ts";
import { SHUTDOWN } from "../src/protocol/probes.ts";

/**
 * @anchor R2
 * Stimulus: shutdown after a completed handshake (probe shutdown); the
 * provider must exit by itself, with status 0, within the grace period
 * (the per-exchange timeout).
 */
export default defineCheck({
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
    const expected = "the provider exits by itself with status 0";
    if (killed || !exit) {
      return [
        {
          ok: false,
          message: `the provider was still running after shutdown (${killed?.reason ?? "no exit observed"}), so cgp-conform killed it`,
          expected,
          actual: killed ? `killed at ${killed.t} ms` : "no exit",
          lines: [sent.n, ...(killed ? [killed.n] : []), ...(exit ? [exit.n] : [])],
        },
      ];
    }
    if (exit.n < sent.n) {
      return [
        {
          ok: false,
          message: "the provider exited before shutdown was sent",
          expected,
          actual: `exit code ${exit.exitCode}, signal ${exit.signal}`,
          lines: [exit.n, sent.n],
        },
      ];
    }
    const after = exit.t - p.events.find((e) => e.n === sent.n)!.t;
    if (exit.exitCode === 0 && !exit.signal) {
      return [{ ok: true, message: `the provider exited with status 0, ${after} ms after shutdown`, lines: [sent.n, exit.n] }];
    }
    return [
      {
        ok: false,
        message: `the provider ended ${after} ms after shutdown with ${exit.signal ? `signal ${exit.signal}` : `exit status ${exit.exitCode}`}`,
        expected,
        actual: exit.signal ? `signal ${exit.signal}` : `exit status ${exit.exitCode}`,
        lines: [sent.n, exit.n],
      },
    ];
  },
});
