import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { CRASH_MID_QUERY, STOPS_ANSWERING } from "../../src/protocol/host-scenarios.ts";
import { describeEnding, type HostView } from "../../src/transcript/host.ts";

const SCENARIOS = [CRASH_MID_QUERY, STOPS_ANSWERING];

/** Where the scenario's fault met the host: the line it happened at, and the words for it; undefined when the host never got there. */
function fault(v: HostView): { n: number; what: string } | undefined {
  const query = v.sent("query")[0];
  if (v.spec === CRASH_MID_QUERY) {
    const died = v.notes("provider-exit").find((e) => query === undefined || e.n > query.n) ?? v.notes("dropped")[0];
    if (!query && !died) return undefined;
    return { n: died?.n ?? query!.n, what: "its provider crashed mid-query" };
  }
  const withheld = v.notes("withheld")[0];
  if (!query && !withheld) return undefined;
  return { n: withheld?.n ?? query!.n, what: "its provider stopped answering" };
}

/**
 * @section 11.1 (no anchor number)
 * Stimulus: scenarios crash-mid-query (the scenario provider reads the first
 * query, writes half a line and dies; over HTTP it drops the connection) and
 * stops-answering (it answers the handshake, then never answers again, and
 * never exits). A scenario the host never brought to its fault (it sent no
 * query there) says nothing; skip when neither did.
 * §11.1 describes the reference host's behaviour, and is informative ("a
 * provider that dies mid-query surfaces as ProviderCrashed", the handshake
 * driven "under an explicit timeout so a stall is a distinct failure"), and
 * the spec's opening says so: "Reference-host behaviour (timeouts, the safety
 * factor, composition strategy) is informative and explicitly marked."
 * No keyword binds a host here, so no finding may fail or warn: the check's
 * level is MAY, the level whose shortfall is info (statusOf), read as "the
 * reference host's way, which a host may follow", not as a keyword of the
 * section. A host that ends on its own (any exit status: reporting the fault
 * with a nonzero one is expected) passes; one the run had to kill when its
 * bound ran out is info, saying it did not end within that many
 * milliseconds; one that was ended by a signal, itself crashing, is info.
 * Reading of a kill: where the host sent no query after its first, whether
 * it had no deadline on the read the reference host bounds, or one longer
 * than the bound, cannot be told, and the finding says only that it did not
 * end within the bound; where it sent another query after its first went
 * unanswered, the transcript shows it gave up waiting on its own (after so
 * many ms) and went on, and the finding says that, and that its waits
 * together outlast the bound (it used to say only that it did not end). The
 * bound of these two scenarios is never shorter than a reasonable host
 * deadline: the larger of --timeout and --fault-timeout (default 45 000 ms,
 * FAULT_BOUND_FLOOR_MS), so a host that gives a provider 30 s once ends
 * within it; the finding names --fault-timeout, the option for these
 * scenarios, to raise it.
 */
export default defineHostCheck({
  id: "host:S11-robust",
  anchor: "S11-robust",
  follows: "R3",
  title: "The host ends on its own when a provider crashes or stops answering",
  level: "MAY",
  requirement:
    "A provider that dies mid-query surfaces as ProviderCrashed […] driving the handshake under an explicit timeout so a stall is a distinct failure (§11.1, informative).",
  scenarios: SCENARIOS,
  score(input) {
    const out: Evidence[] = [];
    for (const v of ranViews(input, SCENARIOS)) {
      const f = fault(v);
      if (!f) continue;
      const end = v.ending();
      const lines = [f.n, end.n];
      switch (end.kind) {
        case "exit":
          out.push({
            ok: true,
            message: `scenario ${v.name}: after ${f.what} (line ${f.n}), the host ended on its own: it ${describeEnding(end)} (line ${end.n})`,
            lines,
          });
          break;
        case "hang": {
          const [first, ...more] = v.sent("query");
          const raise = "a larger --fault-timeout raises it (the bound is the larger of --timeout and --fault-timeout)";
          const bound = `the host did not end within ${end.waitedMs} ms, this scenario's bound, and was killed (line ${end.n})`;
          // A query sent after the first, unanswered one: the host gave up waiting on its own and went on.
          if (first && more.length > 0) {
            const last = more[more.length - 1]!;
            const gap = more[0]!.t - first.t;
            out.push({
              ok: false,
              message: `scenario ${v.name}: ${f.what} (line ${f.n}); the host gave up on that answer on its own and went on: ${gap} ms after its query (line ${first.n}) it sent another (line ${more[0]!.n})${more.length > 1 ? `, and ${count(more.length - 1, "more")} after it (${lineWords(more.slice(1).map((q) => q.n))})` : ""}, but ${bound.replace(/^the host/, "it")}, ${end.t - last.t} ms after its last query (line ${last.n}): it bounds its wait for an answer (about ${gap} ms here), as the reference host (§11.1, informative) bounds every read, and its waits together outlast the bound; ${raise}, to see whether it then ends on its own`,
              expected: "the host reports the fault and ends on its own",
              actual: `${describeEnding(end)}, after ${count(more.length + 1, "query", "queries")}`,
              lines: [f.n, first.n, ...more.map((q) => q.n), end.n],
            });
            break;
          }
          out.push({
            ok: false,
            message: `scenario ${v.name}: ${f.what} (line ${f.n}), and ${bound}: the reference host (§11.1, informative) bounds every read so that a stall is a distinct failure; a deadline longer than ${end.waitedMs} ms would not show here (${raise})`,
            expected: "the host reports the fault and ends on its own",
            actual: describeEnding(end),
            lines,
          });
          break;
        }
        case "signal":
          out.push({
            ok: false,
            message: `scenario ${v.name}: after ${f.what} (line ${f.n}), the host itself crashed: it ${describeEnding(end)} (line ${end.n}), where the reference host (§11.1, informative) surfaces the provider's fault as an error`,
            expected: "the host reports the fault and ends on its own",
            actual: describeEnding(end),
            lines,
          });
          break;
        default:
          out.push({
            ok: false,
            message: `scenario ${v.name}: after ${f.what} (line ${f.n}), how the host ended was not recorded (${describeEnding(end)}), so whether it ended on its own could not be seen`,
            lines,
          });
      }
    }
    return out.length > 0 ? out : { skip: "the host sent no query in crash-mid-query or stops-answering, so neither fault reached it" };
  },
});
