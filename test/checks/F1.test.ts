import t from "tap";
import F1 from "../../checks/F1.ts";
import { HOST_VERSION } from "../../src/math/version.ts";
import { HANDSHAKE_STEP, SAMPLE_QUERY } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { emptySqueeze, frame, query, served } from "../helpers/transcript.ts";
import { oneFindingEverywhere } from "../helpers/every-frame.ts";

const silent = () =>
  emptySqueeze().probe(SAMPLE_QUERY.name).handshake().send(SAMPLE_QUERY.steps.sample, query("s1")).note("timeout", { waitedMs: 1000, expecting: "reply" });
const noAck = () =>
  emptySqueeze().probe(SAMPLE_QUERY.name).send(HANDSHAKE_STEP, { type: "handshake", protocol_version: HOST_VERSION }).note("timeout", { waitedMs: 1000 });

runCases(F1, [
  {
    name: "scores at both ends of [0, 1]",
    build: () => served([frame({ score: 0 }), frame({ id: "b", score: 1 })]),
    status: "pass",
    says: [/2 of 2 frames/],
    codes: ["F1.held"],
  },
  {
    name: "a score above 1",
    build: () => served([frame({ score: 1.2 })]),
    status: "fail",
    says: [/"frm_1".*score 1\.2, outside \[0, 1\]/],
    codes: ["F1.out-of-range"],
  },
  { name: "a negative score", build: () => served([frame({ score: -0.1 })]), status: "fail" },
  { name: "a score that is a string", build: () => served([frame({ score: "0.5" })]), status: "fail" },
  { name: "no frames served", build: () => served([]), status: "skip", says: [/served no frames/] },
  {
    name: "the query was never answered",
    build: silent,
    status: "unobserved",
    untestable: true,
    says: [/got no frames or error reply: no reply within 1000 ms/],
    codes: ["F1.unanswered"],
  },
  { name: "no handshake", build: noAck, status: "unobserved", untestable: true, says: [/no handshake_ack arrived within 1000 ms/] },
]);

t.test("a score out of range or not a number is one finding, F1's, wherever the frame was served", async (t) => {
  oneFindingEverywhere(
    t,
    F1,
    [
      ["score", 1.5],
      ["score", -0.25],
      ["score", "0.5"],
    ],
    (_m, v) => `has score ${JSON.stringify(v)}, outside [0, 1]`,
  );
});

t.test("a frame's index is its place in result.frames as sent, entries that are no object counted", async (t) => {
  const r = served([null as unknown as object, frame({ score: 5 })]).scoreWith(F1);
  const failing = r.evidence.filter((e) => !e.ok);
  t.equal(failing.length, 1, "one finding: the schema's range at that member is F1's own");
  t.match(failing[0]?.message, /result\.frames\[1\]/);
});
