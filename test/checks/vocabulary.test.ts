import S2E from "../../checks/S2-envelope.ts";
import U1 from "../../checks/U1.ts";
import U2 from "../../checks/U2.ts";
import U3 from "../../checks/U3.ts";
import { afterStep, MALFORMED_STIMULI as STIMULI } from "../../src/protocol/probes.ts";
import { UNKNOWN_KIND } from "../../src/protocol/probes.ts";
import { DECORATION } from "../../src/protocol/probes.ts";
import { FOREIGN_VERSION, HOST_VERSION } from "../../src/math/version.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, emptySqueeze, frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

const timeout = (b: TranscriptBuilder): TranscriptBuilder => b.note("timeout", { waitedMs: 800, expecting: "a reply" });
const dies = (b: TranscriptBuilder): TranscriptBuilder => b.note("eof").note("exit", { exitCode: 1, signal: null });
const err = (code: string | undefined, id?: string): object => ({ type: "error", ...(id ? { id } : {}), ...(code === undefined ? {} : { code }), message: "refused" });

// ---------------------------------------------------------------- U1

interface MembersRun {
  /** The reply to the decorated handshake (default the ack); null: none. */
  ack?: object | null;
  plain?: object | null;
  decorated?: object | null;
}

/**
 * Probe unknown-members (its own session, its own decorated handshake 2–3):
 * plain 4/5, decorated 6/7. Null: no reply, and the probe stops.
 */
function members(o: MembersRun = {}): () => TranscriptBuilder {
  return () => {
    const b = tx().probe("unknown-members").send("handshake", { type: "handshake", protocol_version: HOST_VERSION, ...DECORATION.handshake });
    if (o.ack === null) return timeout(b);
    b.recv(o.ack ?? ACK);
    if (o.ack && (o.ack as { type?: string }).type !== "handshake_ack") return b;
    b.send("plain", query("plain-1"));
    if (o.plain === null) return timeout(b);
    b.recv(o.plain ?? frames("plain-1", [frame()]));
    const q = query("decorated-1") as { query: object };
    b.send("decorated", { ...q, ...DECORATION.envelope, query: { ...q.query, ...DECORATION.query } });
    if (o.decorated === null) return timeout(b);
    return b.recv(o.decorated ?? frames("decorated-1", [frame()]));
  };
}

runCases(U1, [
  {
    name: "unknown members ignored at every level",
    build: members(),
    status: "pass",
    says: [/a handshake carrying an unknown member was acknowledged/, /the query with unknown members was answered exactly as without them/],
  },
  { name: "both queries refused alike", build: members({ plain: err("unavailable", "plain-1"), decorated: err("unavailable", "decorated-1") }), status: "pass" },
  {
    name: "the decorated handshake refused",
    build: members({ ack: err("bad_request") }),
    status: "fail",
    says: [/a handshake carrying an unknown member got no handshake_ack \| handshake_ack \| "error" with code "bad_request"/],
  },
  { name: "the decorated handshake left unanswered", build: members({ ack: null }), status: "fail", says: [/got no handshake_ack \| handshake_ack \| no reply within 800 ms/] },
  {
    name: "the decorated query rejected",
    build: members({ decorated: err("bad_request", "decorated-1") }),
    status: "fail",
    says: [/the query with unknown members was rejected with error "bad_request"; the plain one was answered \| the same answer as the plain query \| error "bad_request": "refused"/],
  },
  {
    name: "the decorated query answered differently",
    build: members({ decorated: frames("decorated-1", [frame({ id: "frm_other" })]) }),
    status: "fail",
    says: [/the query with unknown members got different frames than the same query without them \| \[\["frm_1","abcd"\]\] \| \[\["frm_other","abcd"\]\]/],
  },
  {
    name: "the decorated query left unanswered",
    build: members({ decorated: null }),
    status: "fail",
    says: [/a query carrying unknown members \(line 6\) got no answer: no reply within 800 ms/],
  },
]);

runCases(U1, [
  {
    name: "the plain query gets no answer",
    build: members({ plain: null }),
    status: "fail",
    untestable: true,
    says: [/\(line 4\).*no reply within 800 ms/],
  },
]);

// ---------------------------------------------------------------- U2

type Reply = object | null | "exit";

/**
 * Probe unknown-kind (its own session, handshake 2–3): unknown-kind 4/5,
 * mixed-kinds 6/7 (when a kind is declared), after-unknown-kind then.
 * Null: no reply (a timeout); "exit": the provider dies; either stops the probe.
 */
function unknownKind(o: { declared?: string[]; first?: Reply; mixed?: Reply; sync?: Reply } = {}): () => TranscriptBuilder {
  return () => {
    const declared = o.declared ?? ["doc"];
    const b = tx().probe("unknown-kind").handshake({ ...ACK, capabilities: { query: { kinds: declared }, correlation: true } });
    type Ask = [string, string, Record<string, unknown>, Reply | undefined, object];
    const asks: Ask[] = [
      ["unknown-kind", "ukind-1", { kinds: [UNKNOWN_KIND] }, o.first, frames("ukind-1", [])],
      ...(declared[0] ? [["mixed-kinds", "ukind-2", { kinds: [UNKNOWN_KIND, declared[0]] }, o.mixed, frames("ukind-2", [frame({ kind: declared[0] })])] as Ask] : []),
      ["after-unknown-kind", "ukind-sync", {}, o.sync, frames("ukind-sync", [frame()])],
    ];
    for (const [step, id, q, reply, honest] of asks) {
      b.send(step, query(id, q));
      if (reply === null) return timeout(b);
      if (reply === "exit") return dies(b);
      b.recv(reply ?? honest);
    }
    return b;
  };
}

runCases(U2, [
  {
    name: "zero frames, then the known kind's frames, then alive",
    build: unknownKind(),
    status: "pass",
    says: [/kinds \["acme:diagram"\] \(line 4\) answered with frames/, /kinds \["acme:diagram","doc"\] \(line 6\) answered with frames/, /the provider answered the next query \(line 9\)/],
  },
  { name: "unsupported_kind for the unknown kind", build: unknownKind({ first: err("unsupported_kind", "ukind-1") }), status: "pass", says: [/kinds \["acme:diagram"\] \(line 4\) answered with unsupported_kind/] },
  { name: "no kind declared: no mixed query", build: unknownKind({ declared: [] }), status: "pass", says: [/the provider answered the next query \(line 7\)/] },
  {
    name: "the unknown kind rejected as a bad request",
    build: unknownKind({ first: err("bad_request", "ukind-1") }),
    status: "fail",
    says: [/kinds \["acme:diagram"\] \(line 4\) answered with error "bad_request" \| frames, or error unsupported_kind \| error "bad_request"/],
  },
  { name: "the mixed query failed internally", build: unknownKind({ mixed: err("internal", "ukind-2") }), status: "fail", says: [/kinds \["acme:diagram","doc"\] \(line 6\) answered with error "internal"/] },
  {
    name: "the provider dies on the unknown kind",
    build: unknownKind({ first: "exit" }),
    status: "fail",
    says: [/kinds \["acme:diagram"\] \(line 4\) got no answer: the provider exited \(code 1, signal null\)/, /after a query for the unknown kind acme:diagram, the provider exited \(code 1, signal null\) \| the provider stays alive/],
  },
  {
    name: "alive, but the next query hangs",
    build: unknownKind({ sync: null }),
    status: "fail",
    says: [/after a query for the unknown kind acme:diagram, the following valid query got no reply within 800 ms/],
  },
]);

// ---------------------------------------------------------------- U3

interface VocabRun {
  scopes?: unknown[];
  /** Errors the malformed-input stimulus, the unknown request and the foreign handshake draw; null: none. */
  malformed?: object | null;
  unknownType?: object | null;
  foreign?: object | null;
  rels?: unknown[];
}

/**
 * The probes U3 reads: handshake (shared, 2–3), sample-query (4/5),
 * malformed-input (6–11: the garbage line at 8, its error at 9),
 * unknown-type (its unknown request's error at 15), foreign-version (its
 * error at 20, when every earlier reply is there).
 */
function vocabulary(o: VocabRun = {}): () => TranscriptBuilder {
  return () => {
    const ack = { ...ACK, provider: { ...ACK.provider, data_flow: { reads: true, writes: false, egress: true, ...(o.scopes ? { egress_scopes: o.scopes } : {}) } } };
    const relations = (o.rels ?? []).map((rel) => ({ rel, target_uri: "file:///repo/src/x.ts#x", display_name: "x()" }));
    const b = tx()
      .probe("handshake", "shared")
      .handshake(ack)
      .probe("sample-query", "shared")
      .send("sample", query("sample-1"))
      .recv(frames("sample-1", relations.length ? [frame({ relations })] : []));
    const st = STIMULI[0];
    b.probe("malformed-input").handshake(ack).send(st.step, st.line);
    if (o.malformed !== null) b.recv(o.malformed ?? err("bad_request"));
    b.send(afterStep(st.step), query("sync-1")).recv(frames("sync-1", []));
    b.probe("unknown-type").handshake(ack).send("unknown-request", { type: "acme:subscribe", id: "unknown-1", subscription: { topic: "frames" } });
    if (o.unknownType === null) timeout(b);
    else b.recv(o.unknownType ?? err("bad_request", "unknown-1"));
    b.send("unknown-notification", { type: "acme:notice", notice: { text: "x" } }).send("after-notification", query("unknown-sync")).recv(frames("unknown-sync", []));
    b.probe("foreign-version").send("foreign-handshake", { type: "handshake", protocol_version: FOREIGN_VERSION });
    return o.foreign === null ? timeout(b) : b.recv(o.foreign ?? err("incompatible_version"));
  };
}

runCases(U3, [
  {
    name: "base values throughout",
    build: vocabulary({ scopes: ["local-only", "third-party-model"], rels: ["code.calls", "myindex.owns"] }),
    status: "pass",
    says: [/egress_scope "third-party-model" is the protocol's/, /error code "bad_request" is the protocol's/, /error code "incompatible_version" is the protocol's/, /rel "myindex\.owns" is the protocol's/],
  },
  {
    name: "vendor values, namespaced",
    build: vocabulary({ scopes: ["acme:vault"], malformed: err("acme:garbled"), rels: ["acme:owns"] }),
    status: "pass",
    says: [/egress_scope "acme:vault" is namespaced/, /error code "acme:garbled" is namespaced/, /rel "acme:owns" is namespaced/],
  },
  {
    name: "an unprefixed vendor scope",
    build: vocabulary({ scopes: ["cloud"] }),
    status: "fail",
    says: [/egress_scope "cloud" is neither a value this spec defines nor namespaced \| one of local-only, org-tenant, third-party-index, third-party-model, or vendor:name \| "cloud"/],
  },
  { name: "a scope with an empty name", build: vocabulary({ scopes: ["acme:"] }), status: "fail", says: [/egress_scope "acme:" contains ":" but is not vendor:name with non-empty sides \| vendor:name \| "acme:"/] },
  {
    name: "an unprefixed vendor error code",
    build: vocabulary({ malformed: err("quota_exceeded") }),
    status: "fail",
    says: [/error code "quota_exceeded" is neither a value this spec defines nor namespaced \| one of bad_request, unsupported_kind, .*internal, or vendor:name/],
  },
  { name: "an error code with two colons", build: vocabulary({ unknownType: err("acme:quota:daily", "unknown-1") }), status: "fail", says: [/error code "acme:quota:daily" contains ":" but is not vendor:name/] },
  { name: "a rel with an empty vendor", build: vocabulary({ rels: [":calls"] }), status: "fail", says: [/rel ":calls" contains ":" but is not vendor:name with non-empty sides/] },
  { name: "an error code that is not a string", build: vocabulary({ foreign: { type: "error", code: 7, message: "no" } }), status: "fail", says: [/error code 7 is not a string/] },
  { name: "an error without a code", build: vocabulary({ foreign: err(undefined) }), status: "warn", says: [/an error carries no code \(§10: "code is for the machine; message is for whoever reads the log\. Both are carried"\)/] },
  {
    name: "nothing to judge: no scope, no error, no relation",
    build: vocabulary({ malformed: null, unknownType: null, foreign: null }),
    status: "skip",
    says: [/no egress_scope, error code or relation was seen/],
  },
]);

// ---------------------------------------------------------------- S2-envelope

/**
 * Probe handshake (2–3), budget-squeeze (4–7), then sample-query: its
 * handshake 8–9, its query 10 and `env` as the answer at line 11.
 */
const answered = (env: object) => () =>
  emptySqueeze(tx().probe("handshake").handshake()).probe("sample-query").handshake().send("sample", query("s1")).recv(env);

runCases(S2E, [
  {
    name: "every envelope valid",
    build: answered(frames("s1", [frame()])),
    status: "pass",
    says: [/^5 envelopes received were validated against the envelope schema \(interop mode\); violations are reported under the anchor that owns the field/m],
  },
  {
    name: "unknown members at every level are ignored (U1)",
    build: answered({ type: "frames", id: "s1", "acme:trace": { span: "7f3a" }, result: { frames: [frame({ "acme:rank": 3 })], truncated: false, "acme:cost": 1 } }),
    status: "pass",
  },
  { name: "a violation another anchor owns is not counted here", build: answered(frames("s1", [frame({ score: 2 })])), status: "pass" },
  {
    name: "result.truncated as a string",
    build: answered({ type: "frames", id: "s1", result: { frames: [], truncated: "no" } }),
    status: "fail",
    says: [/frames envelope at line 11 \(probe sample-query\): \/result\/truncated must be boolean \[schema #\/\$defs\/ContextQueryResult\/properties\/truncated\/type\] \|  \| "no"/],
  },
  {
    name: "result.truncated missing",
    build: answered({ type: "frames", id: "s1", result: { frames: [] } }),
    status: "fail",
    says: [/frames envelope at line 11 \(probe sample-query\): \/result\/truncated required member "truncated" is missing/],
  },
  { name: "a frames envelope with no result", build: answered({ type: "frames", id: "s1" }), status: "fail", says: [/frames envelope at line 11 .*: \/result required member "result" is missing/] },
  { name: "an error with no message", build: answered({ type: "error", id: "s1", code: "unavailable" }), status: "fail", says: [/error envelope at line 11 \(probe sample-query\): \/message required member "message" is missing/] },
  { name: "an empty correlation id", build: answered({ type: "frames", id: "", result: { frames: [], truncated: false } }), status: "fail", says: [/frames envelope at line 11 \(probe sample-query\): \/id must not be empty/] },
  {
    name: "a handshake_ack with no capabilities",
    build: () => tx().probe("handshake").handshake({ type: "handshake_ack", protocol_version: HOST_VERSION, provider: ACK.provider }),
    status: "fail",
    says: [/handshake_ack envelope at line 3 \(probe handshake\): \/capabilities required member "capabilities" is missing/],
  },
]);
