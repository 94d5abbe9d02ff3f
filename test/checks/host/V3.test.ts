import V3 from "../../../checks/host/V3.ts";
import { runHostCases } from "../../helpers/host-transcript.ts";
import { honestBlocks, identities, only, reuseTx } from "../../helpers/reuse.ts";

// handshake 2-3, query 4-5, verify 6-7, query 8-9, shutdown 10, blocks from 11.
runHostCases(V3, [
  {
    name: "an honest second turn: the valid frame reused, the unknown one fetched again",
    build: () => reuseTx({ requery: true, blocks: honestBlocks }),
    status: "pass",
    says: [
      /the block composed after the first answer \(\{context\} line 12\) holds no stored copy of "fixture:unsure" \(cgpmark-re-04\), which verify called "unknown" \(line 7\)/,
      /"fixture:kept" \(cgpmark-re-01\), which verify called valid \(line 7\), is in a block composed after the first answer \(\{context\} line 12\): reuse on valid, as the rule allows/,
    ],
  },
  {
    name: "the unknown frame's stored copy beside the fresh fetch",
    build: () => reuseTx({ requery: true, blocks: (h) => [h.first, [...only(h.first, "fixture:unsure"), ...h.second]] }),
    status: "fail",
    codes: ["host:V3.stored-copy"],
    says: [
      /the second block \(\{context\} line 12\): it holds the stored copy of "fixture:unsure" \(cgpmark-re-04\), which verify called "unknown" \(line 7\), not served again; it was composed after that verdict, since it holds cgpmark-re-\d\d, first served at line 9; only a valid verdict permits reuse/,
    ],
    lines: [12, 7, 9],
    never: [/fixture:unanswered|fixture:changed|fixture:undigested/],
  },
  {
    name: "a status no revision defines is no validity either",
    build: () =>
      reuseTx({
        requery: true,
        verdicts: (vs) => vs.map((v) => ((v.frame as { frame_id: string }).frame_id === "fixture:unsure" ? { ...v, status: "cgp-conform:maybe" } : v)),
        blocks: (h) => [h.first, [...only(h.first, "fixture:unsure"), ...h.second]],
      }),
    status: "fail",
    codes: ["host:V3.stored-copy"],
    says: [/which verify called "cgp-conform:maybe"/],
  },
  {
    name: "the unknown copy in a block of stored frames only: a warning",
    build: () => reuseTx({ blocks: (h) => [h.first, only(h.first, "fixture:kept", "fixture:unsure")] }),
    status: "warn",
    codes: ["host:V3.stored-copy-unshown"],
    strict: "warn",
    says: [/nothing in it shows it was composed after that verdict/],
  },
  {
    name: "a frame no verify asked about, reused: the SHOULD of D4",
    build: () =>
      reuseTx({
        verify: (first) => identities("cgp-conform-reference", only(first, "fixture:kept")),
        requery: true,
        blocks: (h) => [h.first, [...only(h.first, "fixture:kept", "fixture:changed"), ...only(h.second, "fixture:undigested")]],
      }),
    status: "warn",
    codes: ["host:V3.reused-unverified"],
    strict: "fail",
    says: [/the second block \(\{context\} line 12\): it holds the stored copy of 1 frame no verify asked about: "fixture:changed" \(cgpmark-re-02\)/],
  },
  {
    name: "the stale, gone, left-out and digest-less copies are other checks' findings",
    build: () =>
      reuseTx({
        requery: true,
        blocks: (h) => [h.first, [...only(h.first, "fixture:changed", "fixture:removed", "fixture:unanswered", "fixture:undigested"), ...h.second]],
      }),
    status: "pass",
  },
  {
    name: "no verify",
    build: () => reuseTx({ verify: false, requery: true, blocks: (h) => [h.first, h.first] }),
    status: "skip",
    says: [/the host sent no verify in reuse/],
  },
  {
    name: "composed once",
    build: () => reuseTx({ requery: true, blocks: (h) => [h.first] }),
    status: "skip",
    says: [/composed once/],
  },
]);
