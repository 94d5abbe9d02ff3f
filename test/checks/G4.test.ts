import G4 from "../../checks/G4.ts";
import { GRAPH_ANCHORS, HANDSHAKE } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { rel } from "../helpers/graph.ts";
import { ACK, frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

const GRAPH_ACK = { ...ACK, capabilities: { query: { kinds: [] }, correlation: true, graph: true } };
const A = frame({
  id: "frm_a",
  uri: "file:///repo/a.md",
  relations: [rel({ rel: "doc.documents", target_uri: "file:///repo/src/x.ts#x", display_name: "x()" })],
});
const B = frame({ id: "frm_b", uri: "file:///repo/b.md" });
const URI = "file:///repo/b.md";
const TARGET = "file:///repo/src/x.ts#x";

const STEPS = GRAPH_ANCHORS.steps;
type AnchorStep = typeof STEPS.anchorUri | typeof STEPS.anchorRelation | typeof STEPS.anchorRank;

/**
 * Probe graph-anchors in the shared session: handshake 2–3, unanchored 4/5
 * (serving A then B), anchor-uri on B's uri 6/7, anchor-relation on A's
 * relation target 8/9, anchor-rank on B's uri 10/11. An honest provider
 * answers B, A, then B before A. Null: no answer, the probe stops.
 */
function anchors(replies: Partial<Record<AnchorStep, object | null>> = {}, unanchored: object[] = [A, B], graph = true): () => TranscriptBuilder {
  return () => {
    const b = tx()
      .probe(HANDSHAKE.name, "shared")
      .handshake(graph ? GRAPH_ACK : ACK)
      .probe(GRAPH_ANCHORS.name, "shared");
    if (!graph) return b;
    b.send(STEPS.unanchored, query("anchor-0")).recv(frames("anchor-0", unanchored));
    const uri = [...unanchored]
      .reverse()
      .map((f) => (f as { uri?: string }).uri)
      .find((u) => u);
    if (!uri) return b;
    const asks: Array<[AnchorStep, string, string, number, object[]]> = [
      [STEPS.anchorUri, "anchor-1", URI, 1, [B]],
      [STEPS.anchorRelation, "anchor-2", TARGET, 1, [A]],
      [STEPS.anchorRank, "anchor-3", URI, 64, [B, A]],
    ];
    for (const [step, id, anchor, maxFrames, honest] of asks) {
      b.send(step, query(id, { anchors: [anchor], max_frames: maxFrames }));
      const r = step in replies ? replies[step] : frames(id, honest);
      if (r === null) return b.note("timeout", { waitedMs: 800, expecting: "a reply" });
      b.recv(r!);
    }
    return b;
  };
}

runCases(G4, [
  {
    name: "anchored frames returned, and ranked first",
    build: anchors(),
    status: "pass",
    says: [
      /anchored on a served frame's uri, max_frames 1: returned anchored frame "frm_b"/,
      /anchored on a served relation's target_uri, max_frames 1: returned anchored frame "frm_a"/,
      /anchored frames come first \(1 of 2\)/,
    ],
  },
  {
    name: "a one-hop frame satisfies a uri anchor",
    build: anchors({ "anchor-uri": frames("anchor-1", [frame({ id: "frm_c", uri: "file:///repo/c.md", relations: [rel({ target_uri: URI })] })]) }),
    status: "pass",
    says: [/anchored on a served frame's uri, max_frames 1: returned anchored frame "frm_c"/],
  },
  { name: "graph not declared", build: anchors({}, [A, B], false), status: "skip", says: [/capabilities\.graph is not declared/] },
  {
    name: "nothing to anchor on",
    build: anchors({}, [frame(), frame({ id: "frm_2" })]),
    status: "skip",
    says: [/the unanchored query served no frame with a uri or relation to anchor on/],
  },
  {
    name: "the uri anchor ignored",
    build: anchors({ "anchor-uri": frames("anchor-1", [A]) }),
    status: "fail",
    codes: ["G4.no-anchored"],
    says: [
      /anchored on a served frame's uri "file:\/\/\/repo\/b\.md" with max_frames 1, the provider returned unanchored frame "frm_a", though it served an anchored frame to the unanchored query \| at least one frame whose uri or relation target_uri equals the anchor \| "frm_a"/,
    ],
  },
  {
    name: "the relation anchor answered with nothing",
    build: anchors({ "anchor-relation": frames("anchor-2", []) }),
    status: "fail",
    codes: ["G4.no-anchored"],
    says: [/anchored on a served relation's target_uri "file:\/\/\/repo\/src\/x\.ts#x" with max_frames 1, the provider returned no frame, .* \| no frames/],
  },
  {
    name: "an anchored query refused",
    build: anchors({ "anchor-uri": { type: "error", id: "anchor-1", code: "bad_request", message: "anchors?" } }),
    status: "fail",
    says: [/anchored on a served frame's uri "file:\/\/\/repo\/b\.md" with max_frames 1, the provider returned no frame/],
  },
  {
    name: "the anchored frame ranked below an unanchored one",
    build: anchors({ "anchor-rank": frames("anchor-3", [A, B]) }),
    status: "warn",
    codes: ["G4.ranked-below"],
    strict: "fail",
    says: [/anchored frame "frm_b" is ranked below unanchored frame "frm_a" \| anchored frames first \| "frm_a", "frm_b"\*/],
  },
  {
    name: "an anchored query left unanswered",
    build: anchors({ "anchor-relation": null }),
    status: "unobserved",
    untestable: true,
    says: [/query anchored on "file:\/\/\/repo\/src\/x\.ts#x" \(line 8\) got no answer: no reply within 800 ms/],
  },
]);
