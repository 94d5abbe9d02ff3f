import t from "tap";
import { stderrTail, TAIL, visible } from "../../src/verdict/stderr.ts";
import type { Transcript, TranscriptEvent } from "../../src/transcript/types.ts";

const header = { cgp_conform_transcript: 1 as const, host_version: "contextgraph/1.0", timeout_ms: 5, target: { kind: "stdio" as const, command: ["p"] } };
function tx(events: Array<Partial<TranscriptEvent>>): Transcript {
  return {
    header: { ...header, tool_version: "0.1.0", probes: [], trust_roots: [], started_at: "2026-12-01T00:00:00Z", consent: { grants: [] }, run_facts: {} },
    events: events.map((e, i) => ({ n: i + 2, probe: "p", session: "s", t: 0, step: "x", dir: "note", ...e }) as TranscriptEvent),
  };
}

t.test("a provider's bytes cannot drive or reorder the reader's terminal", async (t) => {
  t.equal(visible("a\x1b[31mred\x07"), "a\\u001b[31mred\\u0007");
  t.equal(visible("ok\u202eevil\u2066x"), "ok\\u202eevil\\u2066x");
  t.equal(visible("tab\there"), "tab\there", "a tab is left as it is");
  t.equal(visible("\u009b2J"), "\\u009b2J", "C1 controls too");
});

t.test("the tail: the session whose provider ended by itself, its last lines, each cut", async (t) => {
  const lines = Array.from({ length: 25 }, (_, i) => `line ${i}`).join("\n");
  const r = stderrTail(
    tx([
      { session: "quiet", dir: "stderr", text: "just a log line\n" },
      { session: "crashed", dir: "stderr", text: `${lines}\n${"x".repeat(1000)}\n` },
      { session: "crashed", note: "exit", exitCode: 1, signal: null },
      { session: "quiet", note: "exit", exitCode: null, signal: "SIGKILL", reason: "killed by cgp-conform" },
    ]),
  )!;
  t.equal(r.session, "crashed");
  t.equal(r.lines.length, TAIL);
  t.equal(r.total, 26);
  t.equal(r.sessions, 2);
  t.equal(r.lines.at(-2), "line 24");
  t.ok(r.lines.at(-1)!.length <= 301 && r.lines.at(-1)!.endsWith("…"), "a long line is cut");
  t.equal(stderrTail(tx([{ dir: "recv", line: "{}" }])), undefined, "no stderr, no tail");
});
