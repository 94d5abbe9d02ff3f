import U2 from "../../checks/U2.ts";
import { UNKNOWN_KIND, UNKNOWN_KIND_PROBE } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";
import { dies, err, timeout } from "../helpers/vocabulary.ts";

type Reply = object | null | "exit";

/**
 * Probe unknown-kind (its own session, handshake 2–3): unknown-kind 4/5,
 * mixed-kinds 6/7 (when a kind is declared), after-unknown-kind then.
 * Null: no reply (a timeout); "exit": the provider dies; either stops the probe.
 */
function unknownKind(o: { declared?: string[]; first?: Reply; mixed?: Reply; sync?: Reply } = {}): () => TranscriptBuilder {
  return () => {
    const declared = o.declared ?? ["doc"];
    const steps = UNKNOWN_KIND_PROBE.steps;
    const b = tx()
      .probe(UNKNOWN_KIND_PROBE.name)
      .handshake({ ...ACK, capabilities: { query: { kinds: declared }, correlation: true } });
    type Ask = [string, string, Record<string, unknown>, Reply | undefined, object];
    const asks: Ask[] = [
      [steps.unknown, "ukind-1", { kinds: [UNKNOWN_KIND] }, o.first, frames("ukind-1", [])],
      ...(declared[0]
        ? [[steps.mixed, "ukind-2", { kinds: [UNKNOWN_KIND, declared[0]] }, o.mixed, frames("ukind-2", [frame({ kind: declared[0] })])] as Ask]
        : []),
      [steps.after, "ukind-sync", {}, o.sync, frames("ukind-sync", [frame()])],
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
    says: [
      /kinds \["acme:diagram"\] \(line 4\) answered with frames/,
      /kinds \["acme:diagram","doc"\] \(line 6\) answered with frames/,
      /the provider answered the next query \(line 9\)/,
    ],
  },
  {
    name: "unsupported_kind for the unknown kind",
    build: unknownKind({ first: err("unsupported_kind", "ukind-1") }),
    status: "pass",
    says: [/kinds \["acme:diagram"\] \(line 4\) answered with unsupported_kind/],
  },
  { name: "no kind declared: no mixed query", build: unknownKind({ declared: [] }), status: "pass", says: [/the provider answered the next query \(line 7\)/] },
  {
    name: "the unknown kind rejected as a bad request",
    build: unknownKind({ first: err("bad_request", "ukind-1") }),
    status: "fail",
    says: [/kinds \["acme:diagram"\] \(line 4\) answered with error "bad_request" \| frames, or error unsupported_kind \| error "bad_request"/],
  },
  {
    name: "the mixed query failed internally",
    build: unknownKind({ mixed: err("internal", "ukind-2") }),
    status: "fail",
    says: [/kinds \["acme:diagram","doc"\] \(line 6\) answered with error "internal"/],
  },
  {
    name: "the provider dies on the unknown kind",
    build: unknownKind({ first: "exit" }),
    status: "fail",
    says: [
      /kinds \["acme:diagram"\] \(line 4\) got no answer: the provider exited \(code 1, signal null\)/,
      /after a query for the unknown kind acme:diagram, the provider exited \(code 1, signal null\) \| the provider stays alive/,
    ],
  },
  {
    name: "alive, but the next query hangs",
    build: unknownKind({ sync: null }),
    status: "fail",
    says: [/after a query for the unknown kind acme:diagram, the following valid query got no reply within 800 ms/],
  },
]);
