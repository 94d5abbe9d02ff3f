import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { findings } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { SCENARIOS } from "../../src/protocol/host-scenarios.ts";
import type { HostView } from "../../src/transcript/host.ts";

/** A line of a pretty-printed envelope: a lone brace or bracket, or an indented member. As checks/S2-framing.ts reads it. */
const FRAGMENT = /^\s*[{}[\]]\s*$|^\s+"/;

type Defect = "fragment" | "text" | "untyped" | "over-long";

/** Lines of one kind of defect: where, and the first of them as written. */
type Found = { scenario: string; lines: number[]; first: string };
const where = (p: { scenario: string; lines: number[] }): string => `scenario ${p.scenario}, ${lineWords(p.lines)}`;
const first = (p: Found): string => show(p.first, 80);
type Transport = { transport: "stdio" | "http" };
type Early = { scenario: string; early: number[]; types: string[]; first: { type: string; line: number }; handshake: number | null; ack: number | null };

const F = findings({
  fragment: {
    says: (p: Found) =>
      `${where(p)}: the host wrote a fragment of a pretty-printed (multi-line) envelope: ${first(p)}; write each envelope on one line (JSON.stringify without indentation)`,
    expected: () => "one envelope per line: an envelope MUST NOT contain a literal newline",
    actual: first,
  },
  "not-json": {
    cites: "Every message is a single JSON object — an envelope — tagged by a type member",
    level: "NONE",
    apart: ["transport"],
    says: (p: Found & Transport) =>
      p.transport === "stdio"
        ? `${where(p)}: the host wrote text that is not a JSON object to the provider's input (a log line on the wrong stream?): ${first(p)}`
        : `${where(p)}: a request body is not a JSON object: ${first(p)}`,
    expected: (p: Transport) =>
      p.transport === "stdio" ? "exactly one JSON envelope (an object with a string type) per line, nothing else" : "one envelope as the request body",
    actual: first,
  },
  untyped: {
    cites: "Every message is a single JSON object — an envelope — tagged by a type member",
    level: "NONE",
    says: (p: Found) => `${where(p)}: the host wrote a JSON object with no string type member, which no receiver can dispatch: ${first(p)}`,
    expected: () => "an envelope: a JSON object tagged by a string type member",
    actual: first,
  },
  "over-long": {
    cites: "exactly one envelope per line, newline-delimited (NDJSON)",
    reading: "a line over the run's cap was not kept: the cap is the run's own limit, and what the line held is not known",
    level: "MAY",
    says: (p: { scenario: string; lines: number[]; bytes: number | null }) =>
      `${where(p)}: a line over the run's line cap${p.bytes !== null ? ` (${p.bytes} bytes when it crossed it)` : ""} was not kept, so it could not be judged; the cap is the run's, not a rule`,
  },
  "before-handshake": {
    cites: "No query payload moves before this exchange completes",
    level: "NONE",
    says: (p: Early) =>
      `scenario ${p.scenario}, ${lineWords(p.early)}: the host sent ${p.types.join(" and ")} ${
        p.handshake === null || p.handshake > p.first.line
          ? "before any handshake"
          : p.ack !== null
            ? `before the handshake_ack (line ${p.ack}) came back`
            : "though no handshake_ack ever came back"
      }; open with handshake and wait for its handshake_ack before any query or verify`,
    expected: () => "handshake, then the provider's handshake_ack, then queries",
    actual: (p: Early) =>
      `${show(p.first.type)} at line ${p.first.line}${p.handshake !== null ? `, handshake at line ${p.handshake}` : ", no handshake"}${p.ack !== null ? `, handshake_ack at line ${p.ack}` : ", no handshake_ack"}`,
  },
  framed: {
    ok: true,
    says: (p: Transport & { scenario: string; lines: number[] }) =>
      `scenario ${p.scenario}: every ${p.transport === "http" ? "request body" : "line"} the host wrote is one JSON envelope, and no query or verify precedes the handshake exchange (${count(p.lines.length, p.transport === "http" ? "request body" : "line", p.transport === "http" ? "request bodies" : "lines")}: ${lineWords(p.lines)})`,
  },
});

function framing(v: HostView, transport: "stdio" | "http"): Evidence[] {
  const found = new Map<Defect, { lines: number[]; first: string; bytes?: number }>();
  const add = (d: Defect, n: number, line: string, bytes?: number): void => {
    const f = found.get(d);
    if (f) f.lines.push(n);
    else found.set(d, { lines: [n], first: line, ...(bytes !== undefined ? { bytes } : {}) });
  };
  for (const l of v.lines()) {
    if (l.overLong) add("over-long", l.n, l.line, v.events.find((e) => e.n === l.n)?.bytes);
    else if (l.env === undefined) add(transport === "stdio" && FRAGMENT.test(l.line) ? "fragment" : "text", l.n, l.line);
    else if (typeof l.env.type !== "string") add("untyped", l.n, l.line);
  }
  const out: Evidence[] = [];
  const at = (f: { lines: number[]; first: string }): Found => ({ scenario: v.name, lines: f.lines, first: f.first });
  const fragment = found.get("fragment");
  if (fragment) out.push(F.say("fragment", at(fragment), { lines: fragment.lines }));
  const text = found.get("text");
  if (text) out.push(F.say("not-json", { ...at(text), transport }, { lines: text.lines }));
  const untyped = found.get("untyped");
  if (untyped) out.push(F.say("untyped", at(untyped), { lines: untyped.lines }));
  const long = found.get("over-long");
  // No rule caps a line's length: the cap is the run's, so this is a limit of the run, not a finding.
  if (long) out.push(F.say("over-long", { scenario: v.name, lines: long.lines, bytes: long.bytes ?? null }, { lines: long.lines }));
  return out;
}

/** A query or verify sent before the handshake exchange completed: before any handshake, or before the handshake_ack came back. */
function opening(v: HostView): Evidence[] {
  const ack = v.ack();
  const handshake = v.sent("handshake")[0];
  const early = [...v.sent("query"), ...v.sent("verify")].filter((e) => ack === undefined || e.n < ack.n).sort((a, b) => a.n - b.n);
  if (early.length === 0) return [];
  const first = early[0]!;
  return [
    F.say(
      "before-handshake",
      {
        scenario: v.name,
        early: early.map((e) => e.n),
        types: [...new Set(early.map((e) => e.env.type as string))],
        first: { type: first.env.type as string, line: first.n },
        handshake: handshake ? handshake.n : null,
        ack: ack ? ack.n : null,
      },
      { lines: [...early.map((e) => e.n), ...(handshake ? [handshake.n] : []), ...(ack ? [ack.n] : [])] },
    ),
  ];
}

/**
 * @section 2 (no anchor number)
 * Stimulus: every line the host wrote to the scenario provider in every
 * scenario (lock-step, correlation, foreign-embeddings,
 * representations-subset, verify-declared, egress, egress-scopes, egress-scopes-consented,
 * wrong-family, unknown-members, unknown-vocabulary, error-internal,
 * error-unknown-code, error-no-code, bearer-token, crash-mid-query, stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered,
 * compose-rescored, three-providers, compose-one, compose-one-reordered,
 * compose-one-rescored, budget-breaker-one, reuse-without-verify, reuse, score-ranges,
 * quoted-benign, quoted-hostile, budget-breaker, unverifiable-attestation, reference-unresolvable, incompatible-version, unknown-envelope-type): over
 * stdio a line on the provider's input, over HTTP a request body.
 * Readings, as checks/S2-framing.ts reads a provider's: a fragment of a
 * pretty-printed envelope fails ("An envelope MUST NOT contain a literal
 * newline"; over HTTP a body may hold newlines, so there no line is a
 * fragment). Other text, and a JSON object with no string type, warns:
 * "exactly one envelope per line" and "tagged by a type member" are stated
 * with no keyword. A line longer than the run's cap is informational: the
 * cap is the tool's. A query or verify sent before the handshake_ack came
 * back (or before any handshake) warns: "No query payload moves before this
 * exchange completes" has no keyword. One finding per kind of defect per
 * scenario, with every line it was seen at.
 */
export default defineHostCheck({
  findings: F.table,
  id: "host:S2-framing",
  anchor: "S2-framing",
  title: "The host frames one envelope per line and opens with the handshake",
  level: "MUST",
  requirement:
    "stdio: exactly one envelope per line, newline-delimited (NDJSON). An envelope MUST NOT contain a literal newline. HTTP: one envelope as the request body, one as the response body. " +
    "[…] The host opens with handshake; the provider replies handshake_ack carrying its protocol version, identity, and capabilities. No query payload moves before this exchange completes.",
  scenarios: SCENARIOS,
  score(input) {
    const out: Evidence[] = [];
    for (const v of ranViews(input, SCENARIOS)) {
      // No line, no framing to judge: a host may rightly send a non-loopback provider nothing (C4, C7).
      if (v.lines().length === 0) continue;
      const found = [...framing(v, input.transport), ...opening(v)];
      if (found.length > 0) {
        out.push(...found);
        continue;
      }
      const lines = v.lines().map((l) => l.n);
      out.push(F.say("framed", { scenario: v.name, transport: input.transport, lines }, { lines }));
    }
    return out.length > 0 ? out : { skip: "the host wrote nothing in any scenario that ran" };
  },
});
