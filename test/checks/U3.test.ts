import U3 from "../../checks/U3.ts";
import { FOREIGN_VERSION } from "../../src/math/version.ts";
import { afterStep, FOREIGN_VERSION_PROBE, HANDSHAKE, MALFORMED_INPUT, malformedLines, SAMPLE_QUERY, UNKNOWN_TYPE } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";
import { err, timeout } from "../helpers/vocabulary.ts";

interface VocabRun {
  scopes?: unknown[];
  /** Errors the malformed-input stimulus, the unknown request and the foreign handshake draw; null: none. */
  malformed?: object | null;
  unknownType?: object | null;
  foreign?: object | null;
  rels?: unknown[];
  /** The protocol_version the ack carries (default the host's). */
  version?: string;
}

/**
 * The probes U3 reads: handshake (shared, 2–3), sample-query (4/5),
 * malformed-input (6–11: the garbage line at 8, its error at 9),
 * unknown-type (its unknown request's error at 15), foreign-version (its
 * error at 20, when every earlier reply is there).
 */
function vocabulary(o: VocabRun = {}): () => TranscriptBuilder {
  return () => {
    const ack = {
      ...ACK,
      ...(o.version ? { protocol_version: o.version } : {}),
      provider: { ...ACK.provider, data_flow: { reads: true, writes: false, egress: true, ...(o.scopes ? { egress_scopes: o.scopes } : {}) } },
    };
    const relations = (o.rels ?? []).map((rel) => ({ rel, target_uri: "file:///repo/src/x.ts#x", display_name: "x()" }));
    const b = tx()
      .probe(HANDSHAKE.name, "shared")
      .handshake(ack)
      .probe(SAMPLE_QUERY.name, "shared")
      .send(SAMPLE_QUERY.steps.sample, query("sample-1"))
      .recv(frames("sample-1", relations.length ? [frame({ relations })] : []));
    const st = malformedLines(true)[0]!;
    b.probe(MALFORMED_INPUT.name).handshake(ack).send(st.step, st.line);
    if (o.malformed !== null) b.recv(o.malformed ?? err("bad_request"));
    b.send(afterStep(st.step), query("sync-1")).recv(frames("sync-1", []));
    b.probe(UNKNOWN_TYPE.name)
      .handshake(ack)
      .send(UNKNOWN_TYPE.steps.request, { type: "acme:subscribe", id: "unknown-1", subscription: { topic: "frames" } });
    if (o.unknownType === null) timeout(b);
    else b.recv(o.unknownType ?? err("bad_request", "unknown-1"));
    b.send(UNKNOWN_TYPE.steps.notification, { type: "acme:notice", notice: { text: "x" } })
      .send(UNKNOWN_TYPE.steps.after, query("unknown-sync"))
      .recv(frames("unknown-sync", []));
    b.probe(FOREIGN_VERSION_PROBE.name).send(FOREIGN_VERSION_PROBE.steps.foreign, { type: "handshake", protocol_version: FOREIGN_VERSION });
    return o.foreign === null ? timeout(b) : b.recv(o.foreign ?? err("incompatible_version"));
  };
}

runCases(U3, [
  {
    name: "base values throughout",
    build: vocabulary({ scopes: ["local-only", "third-party-model"], rels: ["code.calls", "myindex.owns"] }),
    status: "pass",
    codes: ["U3.protocol"],
    says: [
      /egress_scope "third-party-model" is the protocol's/,
      /error code "bad_request" is the protocol's/,
      /error code "incompatible_version" is the protocol's/,
      /rel "myindex\.owns" is the protocol's/,
    ],
  },
  {
    name: "vendor values, namespaced",
    build: vocabulary({ scopes: ["acme:vault"], malformed: err("acme:garbled"), rels: ["acme:owns"] }),
    status: "pass",
    codes: ["U3.namespaced"],
    says: [/egress_scope "acme:vault" is namespaced/, /error code "acme:garbled" is namespaced/, /rel "acme:owns" is namespaced/],
  },
  {
    name: "an unprefixed vendor scope",
    build: vocabulary({ scopes: ["cloud"] }),
    status: "fail",
    codes: ["U3.unprefixed"],
    says: [
      /egress_scope "cloud" is neither a value this spec defines nor namespaced \| one of local-only, org-tenant, third-party-index, third-party-model, or vendor:name \| "cloud"/,
    ],
  },
  {
    name: "a scope with an empty name",
    build: vocabulary({ scopes: ["acme:"] }),
    status: "fail",
    codes: ["U3.bad-namespace"],
    says: [/egress_scope "acme:" contains ":" but is not vendor:name with non-empty sides \| vendor:name \| "acme:"/],
  },
  {
    name: "an unprefixed vendor error code",
    build: vocabulary({ malformed: err("quota_exceeded") }),
    status: "fail",
    codes: ["U3.unprefixed"],
    says: [
      /error code "quota_exceeded" is neither a value this spec defines nor namespaced \| one of bad_request, unsupported_kind, .*internal, or vendor:name/,
    ],
  },
  // "a : with non-empty sides" does not say which colon splits vendor from name: any does.
  {
    name: "names with more than one colon",
    build: vocabulary({ scopes: ["acme:eu:west"], unknownType: err("acme:quota:daily", "unknown-1"), rels: ["acme:code:calls-into"] }),
    status: "pass",
    says: [/egress_scope "acme:eu:west" is namespaced/, /error code "acme:quota:daily" is namespaced/, /rel "acme:code:calls-into" is namespaced/],
  },
  {
    name: "a code of colons only",
    build: vocabulary({ unknownType: err("::", "unknown-1") }),
    status: "fail",
    codes: ["U3.bad-namespace"],
    says: [/error code "::" contains ":" but is not vendor:name with non-empty sides/],
  },
  {
    // X1: the code vocabulary grows in a 1.x minor, so a later minor's provider may use a code 1.0 does not define.
    name: "an unprefixed error code from a provider that acked a later minor",
    build: vocabulary({ version: "contextgraph/1.3", malformed: err("quota_exceeded") }),
    status: "pass",
    codes: ["U3.later-minor"],
    says: [/error code "quota_exceeded" is not one contextgraph\/1\.0 defines; the provider acked contextgraph\/1\.3, whose vocabulary may/],
  },
  {
    // U3: "a base value this spec defines or later reserves": a later minor may define scopes 1.0 does not, as it may codes.
    name: "an unprefixed egress_scope from a provider that acked a later minor",
    build: vocabulary({ version: "contextgraph/1.3", scopes: ["regional-cloud"] }),
    status: "pass",
    codes: ["U3.later-minor"],
    says: [/egress_scope "regional-cloud" is not one contextgraph\/1\.0 defines; the provider acked contextgraph\/1\.3, whose vocabulary may/],
  },
  {
    name: "a rel with an empty vendor",
    build: vocabulary({ rels: [":calls"] }),
    status: "fail",
    codes: ["U3.bad-namespace"],
    says: [/rel ":calls" contains ":" but is not vendor:name with non-empty sides/],
  },
  {
    name: "an error code that is not a string",
    build: vocabulary({ foreign: { type: "error", code: 7, message: "no" } }),
    status: "fail",
    codes: ["U3.not-a-string"],
    says: [/error code 7 is not a string/],
  },
  {
    name: "an error without a code",
    build: vocabulary({ foreign: err(undefined) }),
    status: "warn",
    codes: ["U3.no-code"],
    strict: "warn",
    says: [/an error carries no code \(§10: "code is for the machine; message is for whoever reads the log\. Both are carried"\)/],
  },
  {
    name: "nothing to judge: no scope, no error, no relation",
    build: vocabulary({ malformed: null, unknownType: null, foreign: null }),
    status: "skip",
    says: [/no egress_scope, error code or relation was seen/],
  },
]);
