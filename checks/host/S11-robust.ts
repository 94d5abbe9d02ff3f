import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
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
 * milliseconds (whether it had no deadline on the read the reference host
 * bounds, or one longer than the bound, cannot be told); one that was ended
 * by a signal, itself crashing, is info. The bound of these two scenarios is
 * never shorter than a reasonable host deadline: the larger of --timeout and
 * --fault-timeout (default 45 000 ms, FAULT_BOUND_FLOOR_MS), so a host that
 * gives a provider 30 s ends within it.
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
        case "hang":
          out.push({
            ok: false,
            message: `scenario ${v.name}: ${f.what} (line ${f.n}), and the host did not end within ${end.waitedMs} ms, this scenario's bound, and was killed (line ${end.n}): the reference host (§11.1, informative) bounds every read so that a stall is a distinct failure; a deadline longer than ${end.waitedMs} ms would not show here (--timeout raises the bound)`,
            expected: "the host reports the fault and ends on its own",
            actual: describeEnding(end),
            lines,
          });
          break;
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
