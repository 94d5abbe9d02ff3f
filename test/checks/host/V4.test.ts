import V4 from "../../../checks/host/V4.ts";
import { hostTx, runHostCases } from "../../helpers/host-transcript.ts";
import { honestBlocks, identities, only, reuseTx } from "../../helpers/reuse.ts";

runHostCases(V4, [
  {
    name: "an honest second turn: valid kept, the rest fetched again",
    // handshake 2-3, query 4-5, verify 6-7, query 8-9, shutdown 10, blocks 11 and 12.
    build: () => reuseTx({ requery: true, blocks: honestBlocks }),
    status: "pass",
    says: [
      /scenario reuse: the block composed after the first answer \(\{context\} line 12\) holds no stored copy of "fixture:changed" \(cgpmark-re-02\), which verify called stale \(line 7\); "fixture:removed" \(cgpmark-re-03\), which verify called gone \(line 7\)/,
    ],
  },
  {
    name: "a second turn that drops what is not valid and fetches nothing: nothing stale in it",
    build: () => reuseTx({ blocks: (h) => [h.first, only(h.first, "fixture:kept")] }),
    status: "pass",
  },
  {
    name: "the stale and gone copies kept beside the fresh fetch",
    build: () => reuseTx({ requery: true, blocks: (h) => [h.first, [...only(h.first, "fixture:changed", "fixture:removed"), ...h.second]] }),
    status: "fail",
    codes: ["host:V4.stored-copy"],
    says: [
      /scenario reuse, the second block \(\{context\} line 12\): it holds the stored copies of 2 frames: "fixture:changed" \(cgpmark-re-02\), which verify called stale \(line 7\); "fixture:removed" \(cgpmark-re-03\), which verify called gone \(line 7\), none served again; it was composed after that verdict, since it holds cgpmark-re-\d\d, first served at line 9/,
    ],
    lines: [12, 7, 9],
  },
  {
    name: "the gone copy alone, in the third block",
    build: () => reuseTx({ requery: true, blocks: (h) => [h.first, h.second, [...h.second, ...only(h.first, "fixture:removed")]] }),
    status: "fail",
    codes: ["host:V4.stored-copy"],
    says: [
      /the third block \(\{context\} line 13\): it holds the stored copy of "fixture:removed" \(cgpmark-re-03\), which verify called gone \(line 7\), not served again/,
    ],
    never: [/line 12\)/],
  },
  {
    name: "the stale copy in a block of stored frames only: when it was composed cannot be told, so it warns",
    build: () => reuseTx({ blocks: (h) => [h.first, only(h.first, "fixture:kept", "fixture:changed")] }),
    status: "warn",
    codes: ["host:V4.stored-copy-unshown"],
    strict: "warn",
    says: [/nothing in it shows it was composed after that verdict \(it holds no frame first served later than line 7\)/],
  },
  {
    name: "a host that started its provider afresh got the first answer again: the copy is a fresh fetch",
    build: () => reuseTx({ requery: "first", blocks: (h) => [h.first, h.second] }),
    status: "pass",
  },
  {
    name: "composed once, at the end, after the verify and the query again: the one block is judged, and the stale and gone copies in it fail",
    build: () => reuseTx({ requery: true, blocks: (h) => [[...only(h.first, "fixture:changed", "fixture:removed"), ...h.second]] }),
    status: "fail",
    codes: ["host:V4.stored-copy"],
    says: [
      /scenario reuse, the first block \(\{context\} line 11\): it holds the stored copies of 2 frames: "fixture:changed" \(cgpmark-re-02\), which verify called stale \(line 7\); "fixture:removed" \(cgpmark-re-03\), which verify called gone \(line 7\), none served again; it was composed after that verdict, since it holds cgpmark-re-\d\d, first served at line 9/,
    ],
    lines: [11, 7, 9],
  },
  {
    name: "composed once, at the end, honestly: the one block passes",
    build: () => reuseTx({ requery: true, blocks: (h) => [honestBlocks(h)[1]!] }),
    status: "pass",
    says: [/the block composed after the first answer \(\{context\} line 11\) holds no stored copy of "fixture:changed"/],
  },
  {
    name: "composed once, holding only what the first answer served: nothing shows when, so it skips, saying what would enable it",
    build: () => reuseTx({ requery: true, blocks: (h) => [h.first] }),
    status: "skip",
    says: [
      /the host composed once in reuse \(\{context\} line 11\), and that block holds only frames its first answer served \(line 5\).*One block is enough where it holds a frame a query after the verify serves/,
    ],
  },
  {
    name: "no block at all",
    build: () => reuseTx({ requery: true, blocks: () => [] }),
    status: "skip",
    says: [/the host wrote no context block: name \{context\}/],
  },
  {
    name: "later blocks with no frame of the scenario",
    build: () => reuseTx({ requery: true, blocks: (h) => [h.first, "Nothing retrieved."] }),
    status: "skip",
    says: [/the host.s 1 later block in reuse \(\{context\} line 12\) holds no frame served there/],
  },
  {
    name: "no verify",
    build: () => reuseTx({ verify: false, requery: true, blocks: (h) => [h.first, h.second] }),
    status: "skip",
    says: [/the host sent no verify in reuse/],
  },
  {
    name: "a verify that asked about neither the stale nor the gone frame",
    build: () =>
      reuseTx({ verify: (first) => identities("cgp-conform-reference", only(first, "fixture:kept")), requery: true, blocks: (h) => [h.first, h.second] }),
    status: "skip",
    says: [/asked about neither/],
  },
  {
    name: "scenario reuse not run",
    build: () => hostTx().scenario("lock-step").honest(),
    status: "skip",
    says: [/reuse was not run/],
  },
]);
