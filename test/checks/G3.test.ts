import G3 from "../../checks/G3.ts";
import { GRAPH_ANCHORS, HANDSHAKE } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

const GRAPH_ACK = { ...ACK, capabilities: { ...ACK.capabilities, graph: true } };
const B_URI = "file:///repo/b.md";
const A = frame({ id: "frm_a", uri: "file:///repo/a.md", score: 0.9 });
const B = frame({ id: "frm_b", uri: B_URI, score: 0.4 });
const C = frame({ id: "frm_c", uri: "file:///repo/c.md", score: 0.3, relations: [{ rel: "doc.cites", target_uri: B_URI }] });

/** graph-anchors in the shared session: unanchored (lines 4/5), then anchored on B's uri with a generous budget (6/7). */
function ranked(unanchored: object[], anchoredReply: object | null, ack: object = GRAPH_ACK): () => TranscriptBuilder {
  return () => {
    const b = tx().probe(HANDSHAKE.name, "shared").handshake(ack).probe(GRAPH_ANCHORS.name, "shared");
    b.send(GRAPH_ANCHORS.steps.unanchored, query("anchor-0")).recv(frames("anchor-0", unanchored));
    b.send(GRAPH_ANCHORS.steps.anchorRank, query("anchor-3", { anchors: [B_URI] }));
    return anchoredReply === null ? b.note("timeout", { waitedMs: 800, expecting: "a reply" }) : b.recv(anchoredReply);
  };
}

runCases(G3, [
  { name: "the anchored frame moves up", build: ranked([A, B], frames("anchor-3", [B, A])), status: "pass", says: [/moved from rank 2 to rank 1/] },
  {
    name: "a one-hop frame moving up counts too",
    build: ranked([A, C, B], frames("anchor-3", [C, A, B])),
    status: "pass",
    says: [/moved from rank 2 to rank 1/],
  },
  {
    name: "the same order with the anchor as without it",
    build: ranked([A, B], frames("anchor-3", [A, B])),
    status: "warn",
    codes: ["G3.not-boosted"],
    says: [/were not boosted: the best-placed ranked 2 without the anchor and 2 with it/, /ranked above 2 \| rank 2/],
  },
  {
    name: "the anchored frame dropped",
    build: ranked([A, B], frames("anchor-3", [A])),
    status: "warn",
    codes: ["G3.not-boosted"],
    says: [/ranked 2 without the anchor and was not returned with it/],
  },
  {
    name: "already first without the anchor: no boost can show",
    build: ranked([B, A], frames("anchor-3", [B, A])),
    status: "skip",
    says: [/already ranked first/],
  },
  {
    name: "no graph capability",
    build: () => tx().probe(HANDSHAKE.name, "shared").handshake(ACK).probe(GRAPH_ANCHORS.name, "shared"),
    status: "skip",
    says: [/capabilities.graph is not declared/],
  },
  {
    name: "no answer to the anchored query",
    build: ranked([A, B], null),
    status: "unobserved",
    untestable: true,
    says: [/got no answer: no reply within 800 ms/],
  },
]);
