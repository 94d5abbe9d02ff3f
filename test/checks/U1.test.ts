import U1 from "../../checks/U1.ts";
import { HOST_VERSION } from "../../src/math/version.ts";
import { DECORATION, HANDSHAKE_STEP, UNKNOWN_MEMBERS } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";
import { err, timeout } from "../helpers/vocabulary.ts";

interface MembersRun {
  /** The reply to the decorated handshake (default the ack); null: none. */
  ack?: object | null;
  plain?: object | null;
  decorated?: object | null;
  /** The reply to the plain query sent again (default: the plain answer's frames); null: none. */
  again?: object | null;
}

/**
 * Probe unknown-members (its own session, its own decorated handshake 2–3):
 * plain 4/5, decorated 6/7, plain again 8/9. Null: no reply, and the probe stops.
 */
function members(o: MembersRun = {}): () => TranscriptBuilder {
  return () => {
    const b = tx()
      .probe(UNKNOWN_MEMBERS.name)
      .send(HANDSHAKE_STEP, { type: "handshake", protocol_version: HOST_VERSION, ...DECORATION.handshake });
    if (o.ack === null) return timeout(b);
    b.recv(o.ack ?? ACK);
    if (o.ack && (o.ack as { type?: string }).type !== "handshake_ack") return b;
    b.send(UNKNOWN_MEMBERS.steps.plain, query("plain-1"));
    if (o.plain === null) return timeout(b);
    b.recv(o.plain ?? frames("plain-1", [frame()]));
    const q = query("decorated-1") as { query: object };
    b.send(UNKNOWN_MEMBERS.steps.decorated, { ...q, ...DECORATION.envelope, query: { ...q.query, ...DECORATION.query } });
    if (o.decorated === null) return timeout(b);
    b.recv(o.decorated ?? frames("decorated-1", [frame()]));
    b.send(UNKNOWN_MEMBERS.steps.plainAgain, query("plain-2"));
    if (o.again === null) return timeout(b);
    const plain = o.plain as { result?: { frames?: object[] } } | undefined;
    return b.recv(o.again ?? frames("plain-2", plain?.result?.frames ?? [frame()]));
  };
}

runCases(U1, [
  {
    name: "unknown members ignored at every level",
    build: members(),
    status: "pass",
    codes: ["U1.handshake-acked", "U1.same-frames"],
    says: [/a handshake carrying an unknown member was acknowledged/, /the query with unknown members was served the same 1 frame as without them/],
  },
  {
    name: "both queries refused alike",
    build: members({ plain: err("unavailable", "plain-1"), decorated: err("unavailable", "decorated-1") }),
    status: "pass",
    codes: ["U1.both-refused"],
  },
  {
    name: "the decorated handshake refused",
    build: members({ ack: err("bad_request") }),
    status: "fail",
    codes: ["U1.handshake-refused"],
    says: [/a handshake carrying an unknown member got no handshake_ack \| handshake_ack \| "error" with code "bad_request"/],
  },
  {
    name: "the decorated handshake left unanswered",
    build: members({ ack: null }),
    status: "fail",
    codes: ["U1.handshake-refused"],
    says: [/got no handshake_ack \| handshake_ack \| no reply within 800 ms/],
  },
  {
    name: "the decorated query rejected",
    build: members({ decorated: err("bad_request", "decorated-1") }),
    status: "fail",
    codes: ["U1.rejected"],
    says: [
      /the query with unknown members was rejected with error "bad_request"; the plain one was answered, before it and after it \| the same answer as the plain query \| error "bad_request": "refused"/,
    ],
  },
  {
    name: "the decorated query answered differently",
    build: members({ decorated: frames("decorated-1", [frame({ id: "frm_other" })]) }),
    status: "fail",
    codes: ["U1.different-frames"],
    says: [
      /the query with unknown members was served a different set of frames than the same query without them, sent before and after it with the same answer both times: 1 of the plain query's 1 frame missing \("frm_1"\), 1 others added \("frm_other"\); no answer was truncated \| the plain query's frames: "frm_1" \| "frm_other"/,
    ],
  },
  {
    name: "the decorated query left unanswered",
    build: members({ decorated: null }),
    status: "fail",
    codes: ["U1.decorated-unanswered"],
    says: [/a query carrying unknown members \(line 6\) got no answer: no reply within 800 ms/],
  },
]);

runCases(U1, [
  {
    name: "the plain query gets no answer",
    build: members({ plain: null }),
    status: "unobserved",
    codes: ["U1.plain-unanswered"],
    untestable: true,
    says: [/\(line 4\).*no reply within 800 ms/],
  },
]);

// A ranking may change between identical queries (ties, approximate indexes, recency): only the set served is compared, and only where nothing else explains a difference.
const two = [frame({ id: "frm_1" }), frame({ id: "frm_2", content: "efgh" })];
const truncated = (id: string, fs: object[]): object => ({ type: "frames", id, result: { frames: fs, truncated: true } });

runCases(U1, [
  {
    name: "the same frames in another order",
    build: members({ plain: frames("plain-1", two), decorated: frames("decorated-1", [...two].reverse()) }),
    status: "pass",
    says: [/the query with unknown members was served the same 2 frames as without them/],
  },
  {
    name: "the same frames, one of whose content changed in between",
    build: members({ plain: frames("plain-1", two), decorated: frames("decorated-1", [two[0]!, frame({ id: "frm_2", content: "efgh, edited" })]) }),
    status: "pass",
  },
  {
    name: "other frames at the cut, both answers truncated",
    build: members({ plain: truncated("plain-1", [two[0]!]), decorated: truncated("decorated-1", [two[1]!]) }),
    status: "pass",
    codes: ["U1.truncated-apart"],
    says: [/1 of the plain query's 1 not among them, but both answers were truncated: which frames make the cut varies with the ranking/],
  },
  {
    name: "fewer frames, the decorated answer truncated",
    build: members({ plain: frames("plain-1", two), decorated: truncated("decorated-1", [two[1]!]) }),
    status: "pass",
    codes: ["U1.truncated-apart"],
    says: [/but the decorated answer was truncated/],
  },
  {
    name: "fewer frames, neither answer truncated",
    build: members({ plain: frames("plain-1", two), decorated: frames("decorated-1", [two[1]!]) }),
    status: "fail",
    codes: ["U1.different-frames"],
    says: [/1 of the plain query's 2 frames missing \("frm_1"\), 0 others added; no answer was truncated/],
  },
  {
    name: "the plain query refused, the decorated one answered",
    build: members({ plain: err("unavailable", "plain-1") }),
    status: "pass",
    codes: ["U1.plain-refused"],
    says: [/the plain query was refused \(error "unavailable"\) and the one with unknown members answered: nothing was rejected for them/],
  },
]);

// A provider that retains what it receives (data_flow.writes) or serves a live index may answer each query with one
// frame more than the last: the decorated answer is held only to a plain answer the plain query got twice.
const f = (n: number): object => frame({ id: `frm_${n}`, content: `memory ${n}` });
const upTo = (n: number): object[] => Array.from({ length: n }, (_, i) => f(i + 1));

runCases(U1, [
  {
    // Served both before and after it, yet left out of it: a warning (a ranking varying at its cut could do it too).
    name: "answers grow, and the one with unknown members is served none of the frames both plain answers got",
    build: members({ plain: frames("plain-1", upTo(2)), decorated: frames("decorated-1", []), again: frames("plain-2", upTo(3)) }),
    status: "warn",
    codes: ["U1.handshake-acked", "U1.shared-left-out"],
    says: [/served 2 frames both times, and the one with unknown members left out 2 of them \("frm_1", "frm_2"\)|left out 2 of them/],
  },
  {
    name: "answers grow by one frame per query (a provider retaining what it receives)",
    build: members({ plain: frames("plain-1", upTo(1)), decorated: frames("decorated-1", upTo(2)), again: frames("plain-2", upTo(3)) }),
    status: "info",
    codes: ["U1.handshake-acked", "U1.plain-unstable"],
    says: [
      /the plain query, sent before and after the one with unknown members, was served 1 frame and then 3 frames \(2 added, 0 gone\), and the one with unknown members 2 frames, the same as neither/,
    ],
    never: [/served a different set of frames/],
  },
  {
    name: "answers grow once, between the first plain query and the decorated one",
    build: members({ plain: frames("plain-1", upTo(1)), decorated: frames("decorated-1", upTo(2)), again: frames("plain-2", upTo(2)) }),
    status: "pass",
    codes: ["U1.same-as-again"],
    says: [/the same 2 frames as the plain query sent after it/],
  },
  {
    name: "the decorated query rejected, and the plain one refused when sent again",
    build: members({ decorated: err("bad_request", "decorated-1"), again: err("unavailable", "plain-2") }),
    status: "info",
    codes: ["U1.plain-again-refused"],
    says: [/the plain query sent again after the one with unknown members \(line 8\) was refused with error "unavailable"/],
    never: [/was rejected/],
  },
  {
    name: "the decorated query answered differently, and the plain one not answered again",
    build: members({ decorated: frames("decorated-1", [frame({ id: "frm_other" })]), again: null }),
    status: "unobserved",
    untestable: true,
    codes: ["U1.plain-again-unanswered"],
    says: [/the plain query sent again after the one with unknown members \(line 8\) got no answer: no reply within 800 ms/],
  },
  {
    name: "the decorated query answered alike, the plain one not answered again: nothing to compare is needed",
    build: members({ again: null }),
    status: "pass",
    codes: ["U1.same-frames"],
  },
  {
    name: "fewer frames, only the second plain answer truncated",
    build: members({ plain: frames("plain-1", two), decorated: frames("decorated-1", [two[1]!]), again: truncated("plain-2", two) }),
    status: "pass",
    codes: ["U1.truncated-apart"],
    says: [/but the plain answer was truncated/],
  },
]);
