import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { count, ended, endingParam, lineWords, type Ending } from "../kit/host-evidence.ts";
import { findings } from "../kit/findings.ts";
import { CRASH_MID_QUERY, STOPS_ANSWERING } from "../../src/protocol/host-scenarios.ts";
import type { HostView } from "../../src/transcript/host.ts";

const SCENARIOS = [CRASH_MID_QUERY, STOPS_ANSWERING];

/** The scenario's fault: the provider crashed mid-query, or stopped answering; at the line it met the host. */
type Fault = { n: number; kind: "crashed" | "stopped" };
const what = (f: Fault): string => (f.kind === "crashed" ? "its provider crashed mid-query" : "its provider stopped answering");

type Met = { scenario: string; fault: Fault; ending: Ending };
const raise = "a larger --fault-timeout raises it (the bound is the larger of --timeout and --fault-timeout)";
const bound = (e: Ending): string => `did not end within ${e.kind === "hang" ? e.waited_ms : 0} ms, this scenario's bound, and was killed (line ${e.n})`;
const expected = () => "the host reports the fault and ends on its own";

const F = findings({
  "ended-on-own": {
    ok: true,
    says: (p: Met) =>
      `scenario ${p.scenario}: after ${what(p.fault)} (line ${p.fault.n}), the host ended on its own: it ${ended(p.ending)} (line ${p.ending.n})`,
  },
  "waits-outlast-bound": {
    says: (p: Met & { first: number; more: number[]; gap: number; since_last: number }) =>
      `scenario ${p.scenario}: ${what(p.fault)} (line ${p.fault.n}); the host gave up on that answer on its own and went on: ${p.gap} ms after its query (line ${p.first}) it sent another (line ${p.more[0]})${p.more.length > 1 ? `, and ${count(p.more.length - 1, "more")} after it (${lineWords(p.more.slice(1))})` : ""}, but it ${bound(p.ending)}, ${p.since_last} ms after its last query (line ${p.more[p.more.length - 1]}): it bounds its wait for an answer (about ${p.gap} ms here), as the reference host (§11.1, informative) bounds every read, and its waits together outlast the bound; ${raise}, to see whether it then ends on its own`,
    expected,
    actual: (p: Met & { more: number[] }) => `${ended(p.ending)}, after ${count(p.more.length + 1, "query", "queries")}`,
  },
  "not-ended": {
    says: (p: Met) =>
      `scenario ${p.scenario}: ${what(p.fault)} (line ${p.fault.n}), and the host ${bound(p.ending)}: the reference host (§11.1, informative) bounds every read so that a stall is a distinct failure; a deadline longer than ${p.ending.kind === "hang" ? p.ending.waited_ms : 0} ms would not show here (${raise})`,
    expected,
    actual: (p: Met) => ended(p.ending),
  },
  crashed: {
    says: (p: Met) =>
      `scenario ${p.scenario}: after ${what(p.fault)} (line ${p.fault.n}), the host itself crashed: it ${ended(p.ending)} (line ${p.ending.n}), where the reference host (§11.1, informative) surfaces the provider's fault as an error`,
    expected,
    actual: (p: Met) => ended(p.ending),
  },
  "ending-unrecorded": {
    says: (p: Met) =>
      `scenario ${p.scenario}: after ${what(p.fault)} (line ${p.fault.n}), how the host ended was not recorded (${ended(p.ending)}), so whether it ended on its own could not be seen`,
  },
});

/** Where the scenario's fault met the host: the line it happened at, and the words for it; undefined when the host never got there. */
function fault(v: HostView): Fault | undefined {
  const query = v.sent("query")[0];
  if (v.spec === CRASH_MID_QUERY) {
    const died = v.notes("provider-exit").find((e) => query === undefined || e.n > query.n) ?? v.notes("dropped")[0];
    if (!query && !died) return undefined;
    return { n: died?.n ?? query!.n, kind: "crashed" };
  }
  const withheld = v.notes("withheld")[0];
  if (!query && !withheld) return undefined;
  return { n: withheld?.n ?? query!.n, kind: "stopped" };
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
  findings: F.table,
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
      const met: Met = { scenario: v.name, fault: f, ending: endingParam(end) };
      switch (end.kind) {
        case "exit":
          out.push(F.say("ended-on-own", met, { lines }));
          break;
        case "hang": {
          const [first, ...more] = v.sent("query");
          // A query sent after the first, unanswered one: the host gave up waiting on its own and went on.
          if (first && more.length > 0) {
            const last = more[more.length - 1]!;
            out.push(
              F.say(
                "waits-outlast-bound",
                { ...met, first: first.n, more: more.map((q) => q.n), gap: more[0]!.t - first.t, since_last: end.t - last.t },
                { lines: [f.n, first.n, ...more.map((q) => q.n), end.n] },
              ),
            );
            break;
          }
          out.push(F.say("not-ended", met, { lines }));
          break;
        }
        case "signal":
          out.push(F.say("crashed", met, { lines }));
          break;
        default:
          out.push(F.say("ending-unrecorded", met, { lines }));
      }
    }
    return out.length > 0 ? out : { skip: "the host sent no query in crash-mid-query or stops-answering, so neither fault reached it" };
  },
});
