import V2 from "../../../checks/host/V2.ts";
import { runHostCases } from "../../helpers/host-transcript.ts";
import { honestBlocks, identities, only, reuseTx } from "../../helpers/reuse.ts";

// handshake 2-3, query 4-5, verify 6-7, query 8-9, shutdown 10, blocks from 11.
runHostCases(V2, [
  {
    name: "an honest second turn: the frame left out is fetched again",
    build: () => reuseTx({ requery: true, blocks: honestBlocks }),
    status: "pass",
    says: [
      /the block composed after the first answer \(\{context\} line 12\) holds no stored copy of "fixture:unanswered" \(cgpmark-re-05\), asked about and given no verdict \(line 7\)/,
    ],
  },
  {
    name: "the left-out frame's stored copy reused",
    build: () => reuseTx({ requery: true, blocks: (h) => [h.first, [...only(h.first, "fixture:unanswered"), ...h.second]] }),
    status: "fail",
    codes: ["host:V2.stored-copy"],
    says: [
      /the second block \(\{context\} line 12\): it holds the stored copy of "fixture:unanswered" \(cgpmark-re-05\), asked about and given no verdict \(line 7\), not served again; it was composed after that verified answer, since it holds cgpmark-re-\d\d, first served at line 9; silence is not validity/,
    ],
    lines: [12, 7, 9],
  },
  {
    name: "reused in a block of stored frames only: a warning",
    build: () => reuseTx({ blocks: (h) => [h.first, only(h.first, "fixture:kept", "fixture:unanswered")] }),
    status: "warn",
    codes: ["host:V2.stored-copy-unshown"],
    strict: "warn",
  },
  {
    name: "the host never asked about the frame the provider leaves out: nothing here to judge",
    build: () =>
      reuseTx({
        verify: (first) => identities("cgp-conform-reference", only(first, "fixture:kept", "fixture:changed")),
        requery: true,
        blocks: (h) => [h.first, [...only(h.first, "fixture:unanswered"), ...h.second]],
      }),
    status: "skip",
    says: [/every identity the host asked about in reuse came back with a verdict/],
  },
  {
    name: "no verify",
    build: () => reuseTx({ verify: false, requery: true, blocks: (h) => [h.first, h.second] }),
    status: "skip",
    says: [/no identity could come back without a verdict/],
  },
]);
