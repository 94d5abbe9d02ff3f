import D1 from "../../checks/D1.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { BUDGET_SQUEEZE, HANDSHAKE, SAMPLE_QUERY } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

const ABCD = digestOfText("abcd");

/**
 * The shared session: handshake 2–3, sample-query 4/5, budget-squeeze 6/7;
 * kinds-query and representations borrow the handshake and send nothing.
 */
function digests(sample: object[], squeeze: object[] = []): () => TranscriptBuilder {
  return () =>
    tx()
      .probe(HANDSHAKE.name, "shared")
      .handshake()
      .probe(SAMPLE_QUERY.name, "shared")
      .send(SAMPLE_QUERY.steps.sample, query("sample-1"))
      .recv(frames("sample-1", sample))
      .probe(BUDGET_SQUEEZE.name, "shared")
      .send(BUDGET_SQUEEZE.steps.generous, query("squeeze-1"))
      .recv(frames("squeeze-1", squeeze));
}

const digested = (over: Record<string, unknown> = {}) => frame({ content_digest: ABCD, ...over });

runCases(D1, [
  {
    name: "well-formed, over the inline content, stable across answers",
    build: digests([digested()], [digested()]),
    status: "pass",
    says: [/every content_digest is well-formed/, /every content_digest is the SHA-256 of its frame's inline content/],
  },
  {
    name: "a new content under a new digest is a new identity",
    build: digests([digested()], [digested({ content: "abce", content_digest: digestOfText("abce") })]),
    status: "pass",
  },
  { name: "no frame carries a content_digest", build: digests([frame()]), status: "skip", says: [/no served frame carries a content_digest/] },
  {
    name: "a digest in uppercase hex",
    build: digests([digested({ content_digest: ABCD.replace("88d4", "88D4") })]),
    status: "fail",
    codes: ["D1.malformed"],
    says: [/frame "frm_1" \(result\.frames\[0\], line 5\) has content_digest "sha256:88D4266f[0-9a-f]+", not sha256:<64 lowercase hex>/],
  },
  {
    name: "a digest of the wrong length",
    build: digests([digested({ content_digest: "sha256:88d4266f" })]),
    status: "fail",
    says: [/has content_digest "sha256:88d4266f", not sha256/],
  },
  {
    name: "one identity served with two contents",
    build: digests([digested()], [digested({ content: "abce" })]),
    status: "fail",
    codes: ["D1.unstable-content"],
    says: [
      new RegExp(
        `frame "frm_1" with content_digest ${ABCD} was served with 2 different contents \\(lines 5, 7\\): one identity, one content \\| .* \\| from character 3: "abcd" vs "abce"`,
      ),
    ],
  },
  {
    name: "a well-formed digest of other bytes (a trailing newline added)",
    build: digests([digested({ content_digest: digestOfText("abcd\n") })]),
    status: "warn",
    codes: ["D1.not-digest-of-content"],
    strict: "warn",
    says: [
      new RegExp(
        `frame "frm_1" \\(result\\.frames\\[0\\], line 5\\) content_digest is not the SHA-256 of its inline content \\(§6\\.3\\) \\| ${ABCD} \\| ${digestOfText("abcd\n")}`,
      ),
    ],
  },
  {
    name: "a query left unanswered",
    build: () =>
      tx()
        .probe(HANDSHAKE.name, "shared")
        .handshake()
        .probe(SAMPLE_QUERY.name, "shared")
        .send(SAMPLE_QUERY.steps.sample, query("sample-1"))
        .note("timeout", { waitedMs: 800 }),
    status: "unobserved",
    untestable: true,
    says: [/query sent at line 4 \(probe sample-query, step sample\) got no frames or error reply: no reply within 800 ms/],
  },
]);

runCases(D1, [
  {
    name: "a null content_digest is absent",
    build: digests([digested({ content_digest: null })]),
    status: "skip",
    says: [/no served frame carries a content_digest/],
  },
]);
