import G1 from "../../checks/G1.ts";
import G2 from "../../checks/G2.ts";
import G4 from "../../checks/G4.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, frame, frames, query, served, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

const rel = (over: Record<string, unknown> = {}) => ({ rel: "code.calls", target_uri: "file:///repo/src/net.rs#retry", display_name: "net::retry", ...over });

/** served(): the sample-query frames are at line 9. */
const relating = (...relations: object[]) => () => served([frame({ relations })]);

/** Relations served (sample-query, 2–5), then budget-squeeze's first query (line 8) never answered. */
const thenSilent = () =>
  tx()
    .probe("sample-query")
    .handshake()
    .send("sample", query("s1"))
    .recv(frames("s1", [frame({ relations: [rel()] })]))
    .probe("budget-squeeze")
    .handshake()
    .send("generous", query("g1"))
    .note("timeout", { waitedMs: 800, expecting: "a reply" });

// ---------------------------------------------------------------- G1

runCases(G1, [
  { name: "every relation labelled", build: relating(rel(), rel({ rel: "doc.documents", display_name: "retry()" })), status: "pass", says: [/every relation has a display_name/] },
  {
    name: "an empty display_name",
    build: relating(rel({ display_name: "" })),
    status: "fail",
    says: [/frame "frm_1" \(result\.frames\[0\], line 9\) relations\[0\] \("code\.calls" → "file:\/\/\/repo\/src\/net\.rs#retry"\) has display_name "" \| a non-empty string \| ""/],
  },
  { name: "no display_name", build: relating(rel({ display_name: undefined })), status: "fail", says: [/relations\[0\] .* has display_name absent/] },
  {
    name: "the second relation of the second frame",
    build: () => served([frame(), frame({ id: "frm_2", relations: [rel(), rel({ rel: "code.imports", display_name: "" })] })]),
    status: "fail",
    says: [/frame "frm_2" \(result\.frames\[1\], line 9\) relations\[1\] \("code\.imports" → /],
  },
  { name: "no relations served", build: () => served([frame(), frame({ id: "frm_2", relations: [] })]), status: "skip", says: [/no served frame carries a relation/] },
  { name: "a later query left unanswered", build: thenSilent, status: "fail", untestable: true, says: [/query sent at line 8 \(probe budget-squeeze, step generous\) got no frames or error reply: no reply within 800 ms/] },
]);

// ---------------------------------------------------------------- G2

runCases(G2, [
  {
    name: "absolute URIs of several schemes",
    build: relating(rel(), rel({ target_uri: "https://example.com/docs/retry" }), rel({ target_uri: "urn:isbn:0451450523" }), rel({ target_uri: "myindex:node/42" })),
    status: "pass",
    says: [/every relation target_uri is a URI/],
  },
  {
    name: "a relative path",
    build: relating(rel({ target_uri: "src/net.rs" })),
    status: "fail",
    says: [/frame "frm_1" \(result\.frames\[0\], line 9\) relations\[0\] has target_uri "src\/net\.rs", which is not a URI \(no scheme, empty, or unparseable\) \| an absolute URI/],
  },
  { name: "an empty target_uri", build: relating(rel({ target_uri: "" })), status: "fail", says: [/has target_uri "", which is not a URI/] },
  { name: "no target_uri", build: relating(rel({ target_uri: undefined })), status: "fail", says: [/has target_uri absent, which is not a URI/] },
  { name: "a URI with an unescaped space", build: relating(rel({ target_uri: "file:///repo/my file.rs" })), status: "fail", says: [/has target_uri "file:\/\/\/repo\/my file\.rs", which is not a URI/] },
  { name: "an unparseable authority", build: relating(rel({ target_uri: "http://[::1/x" })), status: "fail", says: [/has target_uri "http:\/\/\[::1\/x", which is not a URI/] },
  { name: "no relations served", build: relating(), status: "skip", says: [/no served frame carries a relation/] },
  { name: "a later query left unanswered", build: thenSilent, status: "fail", untestable: true },
]);

runCases(G2, [
  {
    name: "a Windows path",
    build: relating(rel({ target_uri: "C:\\repo\\src\\net.rs" })),
    status: "fail",
    says: [/has target_uri "C:\\\\repo\\\\src\\\\net\.rs", which is not a URI/],
  },
]);

// ---------------------------------------------------------------- G4

const GRAPH_ACK = { ...ACK, capabilities: { query: { kinds: [] }, correlation: true, graph: true } };
const A = frame({ id: "frm_a", uri: "file:///repo/a.md", relations: [rel({ rel: "doc.documents", target_uri: "file:///repo/src/x.ts#x", display_name: "x()" })] });
const B = frame({ id: "frm_b", uri: "file:///repo/b.md" });
const URI = "file:///repo/b.md";
const TARGET = "file:///repo/src/x.ts#x";

type AnchorStep = "anchor-uri" | "anchor-relation" | "anchor-rank";

/**
 * Probe graph-anchors in the shared session: handshake 2–3, unanchored 4/5
 * (serving A then B), anchor-uri on B's uri 6/7, anchor-relation on A's
 * relation target 8/9, anchor-rank on B's uri 10/11. An honest provider
 * answers B, A, then B before A. Null: no answer, the probe stops.
 */
function anchors(replies: Partial<Record<AnchorStep, object | null>> = {}, unanchored: object[] = [A, B], graph = true): () => TranscriptBuilder {
  return () => {
    const b = tx().probe("handshake", "shared").handshake(graph ? GRAPH_ACK : ACK).probe("graph-anchors", "shared");
    if (!graph) return b;
    b.send("unanchored", query("anchor-0")).recv(frames("anchor-0", unanchored));
    const uri = [...unanchored].reverse().map((f) => (f as { uri?: string }).uri).find((u) => u);
    if (!uri) return b;
    const asks: Array<[AnchorStep, string, string, number, object[]]> = [
      ["anchor-uri", "anchor-1", URI, 1, [B]],
      ["anchor-relation", "anchor-2", TARGET, 1, [A]],
      ["anchor-rank", "anchor-3", URI, 64, [B, A]],
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
    says: [/anchored on a served frame's uri, max_frames 1: returned anchored frame "frm_b"/, /anchored on a served relation's target_uri, max_frames 1: returned anchored frame "frm_a"/, /anchored frames come first \(1 of 2\)/],
  },
  {
    name: "a one-hop frame satisfies a uri anchor",
    build: anchors({ "anchor-uri": frames("anchor-1", [frame({ id: "frm_c", uri: "file:///repo/c.md", relations: [rel({ target_uri: URI })] })]) }),
    status: "pass",
    says: [/anchored on a served frame's uri, max_frames 1: returned anchored frame "frm_c"/],
  },
  { name: "graph not declared", build: anchors({}, [A, B], false), status: "skip", says: [/capabilities\.graph is not declared/] },
  { name: "nothing to anchor on", build: anchors({}, [frame(), frame({ id: "frm_2" })]), status: "skip", says: [/the unanchored query served no frame with a uri or relation to anchor on/] },
  {
    name: "the uri anchor ignored",
    build: anchors({ "anchor-uri": frames("anchor-1", [A]) }),
    status: "fail",
    says: [/anchored on a served frame's uri "file:\/\/\/repo\/b\.md" with max_frames 1, the provider returned unanchored frame "frm_a", though it served an anchored frame to the unanchored query \| at least one frame whose uri or relation target_uri equals the anchor \| "frm_a"/],
  },
  {
    name: "the relation anchor answered with nothing",
    build: anchors({ "anchor-relation": frames("anchor-2", []) }),
    status: "fail",
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
    says: [/anchored frame "frm_b" is ranked below unanchored frame "frm_a" \| anchored frames first \| "frm_a", "frm_b"\*/],
  },
  {
    name: "an anchored query left unanswered",
    build: anchors({ "anchor-relation": null }),
    status: "fail",
    untestable: true,
    says: [/query anchored on "file:\/\/\/repo\/src\/x\.ts#x" \(line 8\) got no answer: no reply within 800 ms/],
  },
]);
