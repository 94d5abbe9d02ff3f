import B3 from "../../checks/B3.ts";
import F1 from "../../checks/F1.ts";
import F2 from "../../checks/F2.ts";
import F3 from "../../checks/F3.ts";
import F4 from "../../checks/F4.ts";
import { runCases } from "../helpers/cases.ts";
import { emptySqueeze, frame, query, served } from "../helpers/transcript.ts";

const silent = () => emptySqueeze().probe("sample-query").handshake().send("sample", query("s1")).note("timeout", { waitedMs: 1000, expecting: "reply" });
const noAck = () => emptySqueeze().probe("sample-query").send("handshake", { type: "handshake", protocol_version: "contextgraph/1.0" }).note("timeout", { waitedMs: 1000 });

runCases(F1, [
  { name: "scores at both ends of [0, 1]", build: () => served([frame({ score: 0 }), frame({ id: "b", score: 1 })]), status: "pass", says: [/2 of 2 frames/] },
  { name: "a score above 1", build: () => served([frame({ score: 1.2 })]), status: "fail", says: [/"frm_1".*score 1\.2, outside \[0, 1\]/] },
  { name: "a negative score", build: () => served([frame({ score: -0.1 })]), status: "fail" },
  { name: "a score that is a string", build: () => served([frame({ score: "0.5" })]), status: "fail" },
  { name: "no frames served", build: () => served([]), status: "skip", says: [/served no frames/] },
  { name: "the query was never answered", build: silent, status: "fail", untestable: true, says: [/got no frames or error reply: no reply within 1000 ms/] },
  { name: "no handshake", build: noAck, status: "fail", untestable: true, says: [/no handshake_ack arrived within 1000 ms/] },
]);

runCases(F2, [
  { name: "a title", build: () => served([frame()]), status: "pass" },
  { name: "an empty title", build: () => served([frame({ title: "" })]), status: "fail", says: [/empty or missing title/] },
  { name: "no title", build: () => served([frame({ title: undefined })]), status: "fail" },
]);

runCases(F3, [
  { name: "a citation label", build: () => served([frame()]), status: "pass" },
  { name: "an empty citation label", build: () => served([frame({ citation_label: "" })]), status: "fail", says: [/citation_label/] },
]);

runCases(F4, [
  { name: "profile timestamps", build: () => served([frame({ valid_from: "2026-01-01T00:00:00Z", valid_to: "2027-01-01T00:00:00.000Z" })]), status: "pass" },
  { name: "a +00:00 offset", build: () => served([frame({ recorded_at: "2026-07-20T18:00:00+00:00" })]), status: "fail", says: [/recorded_at "2026-07-20T18:00:00\+00:00"/] },
  { name: "lowercase t", build: () => served([frame({ valid_from: "2026-07-20t18:00:00Z" })]), status: "fail" },
  { name: "lowercase z", build: () => served([frame({ valid_to: "2026-07-20T18:00:00z" })]), status: "fail" },
  { name: "a space separator", build: () => served([frame({ valid_from: "2026-07-20 18:00:00Z" })]), status: "fail" },
  { name: "missing seconds", build: () => served([frame({ recorded_at: "2026-07-20T18:00Z" })]), status: "fail" },
  { name: "null is absent", build: () => served([frame({ valid_to: null })]), status: "pass" },
  { name: "no timestamps at all", build: () => served([frame({ recorded_at: undefined })]), status: "skip", says: [/no served frame carries/] },
]);

runCases(B3, [
  { name: "ASCII, exact", build: () => served([frame({ content: "abcde", token_cost: 2 })]), status: "pass" },
  {
    name: "a String.length count on CJK",
    build: () => served([frame({ id: "frm_2", content: "日本語のテキスト", token_cost: 2 })]),
    status: "fail",
    says: [/frame "frm_2" .* declares token_cost 2 but its content is 24 UTF-8 bytes → ceil\(24\/4\) = 6 \(8 UTF-16 code units/],
  },
  { name: "an emoji counted by code units", build: () => served([frame({ content: "🚀🚀🚀", token_cost: 2 })]), status: "fail", says: [/12 UTF-8 bytes → ceil\(12\/4\) = 3/] },
  { name: "one token over: no tolerance", build: () => served([frame({ content: "abcd", token_cost: 2 })]), status: "fail" },
  { name: "no content costs 0", build: () => served([frame({ content: undefined, token_cost: 0 })]), status: "pass" },
  { name: "a non-number cost", build: () => served([frame({ token_cost: "1" })]), status: "fail" },
]);
