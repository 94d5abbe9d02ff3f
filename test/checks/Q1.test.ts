import Q1 from "../../checks/Q1.ts";
import { BASE_KINDS } from "../../src/protocol/caps.ts";
import { HANDSHAKE, kindAnchoredStep, kindPairStep, kindStep, KINDS_QUERY, UNKNOWN_KIND, UNKNOWN_KIND_PROBE } from "../../src/protocol/probes.ts";
import { acking, timeout } from "../helpers/capabilities.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

/**
 * Probe kinds-query in the shared session (its handshake borrowed from probe
 * handshake, lines 6–7): one query per declared kind, then one for the first
 * base kind not declared. Declared ["doc", "snippet"]: kind-doc 8/9,
 * kind-snippet 10/11, unserved "symbol" 12/13. Null: no answer, the probe stops.
 */
function kinds(declared: string[], replies: Record<string, object | null> = {}, unknown: object | "exit" = frames("ukind-1", [])): () => TranscriptBuilder {
  return () => {
    // The unknown-kind session first (lines 2–5): Q1 reads it too.
    const u = tx()
      .probe(UNKNOWN_KIND_PROBE.name)
      .handshake()
      .send(UNKNOWN_KIND_PROBE.steps.unknown, query("ukind-1", { kinds: [UNKNOWN_KIND] }));
    const b = (unknown === "exit" ? u.note("exit", { exitCode: 1, signal: null }) : u.recv(unknown))
      .probe(HANDSHAKE.name, "shared")
      .handshake(acking({ query: { kinds: declared }, correlation: true }))
      .probe(KINDS_QUERY.name, "shared");
    const unserved = BASE_KINDS.find((k) => !declared.includes(k));
    const asks: Array<[string, string, string]> = [
      ...declared.map((k, i): [string, string, string] => [kindStep(k), `kind-${i + 1}`, k]),
      ...(unserved ? [[KINDS_QUERY.steps.unserved, "kind-unserved", unserved] as [string, string, string]] : []),
    ];
    for (const [step, id, kind] of asks) {
      b.send(step, query(id, { kinds: [kind] }));
      const r = kind in replies ? replies[kind] : frames(id, kind === unserved ? [] : [frame({ id: `frm_${kind}`, kind })]);
      if (r === null) return timeout(b);
      b.recv(r!);
    }
    return b;
  };
}

runCases(Q1, [
  {
    name: "each narrowed query returns only its kind; the unserved kind returns nothing",
    build: kinds(["doc", "snippet"]),
    status: "pass",
    codes: ["Q1.requested-kinds"],
    says: [
      /kinds \["doc"\] \(line 8\): 1 frame, all of the requested kinds/,
      /kinds \["snippet"\] \(line 10\): 1 frame\b/,
      /kinds \["symbol"\] \(line 12\): 0 frames/,
    ],
  },
  {
    name: "the unserved kind answered unsupported_kind",
    build: kinds(["doc"], { snippet: { type: "error", id: "kind-unserved", code: "unsupported_kind", message: "doc only" } }),
    status: "pass",
    codes: ["Q1.unsupported-kind"],
    says: [/kinds \["snippet"\] \(line 10\) answered with unsupported_kind/],
  },
  {
    name: "no kinds declared: only the unserved-kind query",
    build: kinds([]),
    status: "pass",
    says: [/kinds \["snippet"\] \(line 8\): 0 frames/],
  },
  {
    name: "a declared kind's query lets another kind through",
    build: kinds(["doc", "snippet"], { doc: frames("kind-1", [frame({ id: "frm_doc", kind: "doc" }), frame({ id: "frm_2", kind: "snippet" })]) }),
    status: "fail",
    codes: ["Q1.other-kind"],
    says: [/kinds \["doc"\] \(line 8\) returned 1 frame of another kind: "frm_2" \("snippet"\) \| only frames of kind "doc" \| kinds \["doc","snippet"\]/],
  },
  {
    name: "the filter ignored for the unserved kind",
    build: kinds(["doc", "snippet"], { symbol: frames("kind-unserved", [frame({ id: "frm_a", kind: "doc" }), frame({ id: "frm_b", kind: "snippet" })]) }),
    status: "fail",
    codes: ["Q1.other-kind"],
    says: [/kinds \["symbol"\] \(line 12\) returned 2 frames of another kind: "frm_a" \("doc"\), "frm_b" \("snippet"\)/],
  },
  {
    // Q1 states the outcome with no keyword: an error other than unsupported_kind warns, never fails.
    name: "a narrowed query refused with another error code",
    build: kinds(["doc", "snippet"], { snippet: { type: "error", id: "kind-2", code: "bad_request", message: "kinds?" } }),
    status: "warn",
    codes: ["Q1.other-error"],
    strict: "warn",
    says: [
      /kinds \["snippet"\] \(line 10\) answered with error "bad_request"; Q1 states the outcome .* \| frames of the requested kinds, or error unsupported_kind \| error "bad_request"/,
    ],
  },
  {
    name: "a narrowed query left unanswered",
    build: kinds(["doc", "snippet"], { doc: null }),
    status: "unobserved",
    codes: ["Q1.no-answer"],
    untestable: true,
    says: [/query for kinds \["doc"\] \(line 8\) got no answer: no reply within 800 ms/],
  },
  {
    // Unreachable from a live run: the probe always sends the unserved-kind query.
    name: "a transcript with no narrowed query in it",
    build: () => tx().probe(UNKNOWN_KIND_PROBE.name).handshake().probe(HANDSHAKE.name, "shared").handshake().probe(KINDS_QUERY.name, "shared"),
    status: "skip",
    says: [/no narrowed query was answered or sent/],
  },
  {
    name: "an anchor on a frame of another kind bypasses the filter",
    build: () =>
      kinds(["doc"])()
        .send(kindAnchoredStep(1), query("kinds-9", { kinds: ["doc"], anchors: ["file:///r/a.ts"] }))
        .recv(frames("kinds-9", [frame({ id: "frm_sym", kind: "symbol", uri: "file:///r/a.ts" })])),
    status: "fail",
    codes: ["Q1.other-kind"],
    says: [/kinds \["doc"\] anchored on "file:\/\/\/r\/a\.ts" \(line \d+\) returned 1 frame of another kind: "frm_sym" \("symbol"\)/],
  },
  {
    name: "a pair of kinds: frames of either pass",
    build: () =>
      kinds(["doc"])()
        .send(kindPairStep(1), query("kinds-9", { kinds: ["doc", "fact"] }))
        .recv(frames("kinds-9", [frame({ id: "a", kind: "doc" }), frame({ id: "b", kind: "fact" })])),
    status: "pass",
    says: [/kinds \["doc","fact"\] \(line \d+\): 2 frames, all of the requested kinds/],
  },
  {
    name: "the unknown kind served as any kind (unknown-kind session)",
    build: () => kinds(["doc"], {}, frames("ukind-1", [frame({ id: "frm_doc", kind: "doc" })]))(),
    status: "fail",
    codes: ["Q1.other-kind"],
    says: [/kinds \["acme:diagram"\] \(line \d+\) returned 1 frame of another kind: "frm_doc" \("doc"\)/],
  },
  {
    // U2 binds hosts, not this: the Rust reference provider's bad_request here is conformant.
    name: "the unknown kind refused with bad_request: a warning citing Q1's stated outcome",
    build: () => kinds(["doc"], {}, { type: "error", id: "ukind-1", code: "bad_request", message: "unknown kind" })(),
    status: "warn",
    codes: ["Q1.other-error"],
    strict: "warn",
    says: [/kinds \["acme:diagram"\] \(line \d+\) answered with error "bad_request"; Q1 states the outcome/],
  },
  {
    name: "the provider died on the unknown kind: R1's finding, not Q1's",
    build: () => kinds(["doc"], {}, "exit")(),
    status: "pass",
  },
]);
