import S2 from "../../checks/S2-framing.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, emptySample, frames, query, type TranscriptBuilder } from "../helpers/transcript.ts";

const unknownRequest = { type: "acme:subscribe", id: "unknown-1", subscription: { topic: "frames" } };
const notice = { type: "acme:notice", notice: { text: "x" } };

function session(
  opts: { banner?: string[]; reqReply?: object | null; noteReply?: object; dies?: boolean; correlation?: boolean; wedged?: boolean } = {},
): () => TranscriptBuilder {
  return () => {
    const b = emptySample().probe("handshake");
    for (const l of opts.banner ?? []) b.recv(l);
    b.handshake();
    b.probe("unknown-type").handshake(opts.correlation === false ? { ...ACK, capabilities: { query: { kinds: [] } } } : ACK);
    if (opts.correlation !== false) {
      b.send("unknown-request", unknownRequest);
      if (opts.dies) return b.note("eof").note("exit", { exitCode: 1, signal: null });
      if (opts.reqReply !== null) b.recv(opts.reqReply ?? { type: "error", id: "unknown-1", code: "bad_request", message: "unknown type" });
      else b.note("timeout", { waitedMs: 500 });
    }
    b.send("unknown-notification", notice).send("after-notification", query("unknown-sync"));
    if (opts.noteReply) b.recv(opts.noteReply);
    if (opts.wedged) return b.note("timeout", { waitedMs: 500 });
    return b.recv(frames("unknown-sync", []));
  };
}

runCases(S2, [
  {
    name: "clean",
    build: session(),
    status: "pass",
    codes: ["S2-framing.single-line", "S2-framing.bad-request", "S2-framing.notification-ignored"],
    says: [/single-line JSON envelopes/],
  },
  {
    name: "the unknown-type session's ack came after its timeout: that probe never ran, so no pass",
    build: () =>
      emptySample()
        .probe("handshake")
        .handshake()
        .probe("unknown-type")
        .send("handshake", { type: "handshake", protocol_version: "contextgraph/1.0" })
        .note("timeout", { waitedMs: 2000, expecting: "a handshake_ack" })
        .recv(ACK),
    status: "unobserved",
    codes: ["S2-framing.not-observed"],
    untestable: true,
    says: [/no handshake_ack arrived within 2000 ms \(one came later\), so probe unknown-type could not proceed/],
  },
  { name: "no correlation: only the notification is sent", build: session({ correlation: false }), status: "pass" },
  {
    name: "a start-up banner",
    build: session({ banner: ["provider ready!"] }),
    status: "warn",
    codes: ["S2-framing.not-envelope"],
    strict: "warn",
    says: [/a banner or log line on stdout\?\): "provider ready!"/],
  },
  {
    name: "a pretty-printed envelope",
    build: session({ banner: ["{", '  "type": "handshake_ack",', "}"] }),
    status: "fail",
    codes: ["S2-framing.fragment"],
    says: [/pretty-printed/],
  },
  // "it replies error with code bad_request" carries no keyword: a provider that goes on serving has rejected nothing.
  {
    name: "unknown request unanswered, then the next query answered",
    build: session({ reqReply: null }),
    status: "warn",
    codes: ["S2-framing.not-bad-request"],
    strict: "warn",
    says: [
      /carrying id "unknown-1" was not answered with bad_request, though the provider went on serving \| error with code "bad_request" \| no reply within 500 ms$/m,
    ],
  },
  {
    name: "unknown request unanswered, and nothing answered after it",
    build: session({ reqReply: null, wedged: true }),
    status: "fail",
    codes: ["S2-framing.rejected-type"],
    says: [
      /carrying id "unknown-1" was not answered with bad_request \| error with code "bad_request" \| no reply within 500 ms, and the valid query after it got no reply within 500 ms/,
    ],
    never: [/after an unknown notification/],
  },
  {
    name: "unknown request answered with another code",
    build: session({ reqReply: { type: "error", id: "unknown-1", code: "internal", message: "?" } }),
    status: "warn",
    codes: ["S2-framing.not-bad-request"],
    strict: "warn",
    says: [/"error" with code "internal"/],
  },
  {
    name: "crash on unknown type",
    build: session({ dies: true }),
    status: "fail",
    codes: ["S2-framing.rejected-type"],
    says: [/the provider exited \(code 1/],
    never: [/after an unknown notification/],
  },
  {
    // "ignores an unrecognised notification" carries no keyword.
    name: "answers the notification",
    build: session({ noteReply: { type: "error", code: "bad_request", message: "?" } }),
    status: "warn",
    codes: ["S2-framing.notification-answered"],
    strict: "warn",
    says: [/no id, line \d+\) was answered by a provider that declares correlation/],
  },
  {
    // Lock-step: every request arrives without an id, so the id-less unknown type may be a request it cannot serve.
    name: "lock-step: answers the id-less unknown type with bad_request, then the next query",
    build: session({ correlation: false, noteReply: { type: "error", code: "bad_request", message: "?" } }),
    status: "pass",
    says: [/after an unknown notification \(line \d+\) the provider answered the next query/],
  },
]);
