import D2 from "../../../checks/host/D2.ts";
import { runHostCases } from "../../helpers/host-transcript.ts";
import { honestBlocks, only, plain, reuseTx } from "../../helpers/reuse.ts";

// handshake 2-3, query 4-5, verify 6-7, query 8-9, shutdown 10, blocks from 11.
runHostCases(D2, [
  {
    name: "the frame served twice under one identity renders once",
    build: () => reuseTx({ requery: true, blocks: honestBlocks }),
    status: "pass",
    says: [/the second block \(\{context\} line 12\): it renders "fixture:kept" \(cgpmark-re-01\), served at lines 5, 9 under one identity, as one content/],
  },
  {
    name: "the fresh copy alone, not the stored one: as allowed",
    build: () => reuseTx({ requery: true, blocks: (h) => [h.first, h.second] }),
    status: "pass",
  },
  {
    name: "the stored copy and the fresh one both rendered",
    build: () => reuseTx({ requery: true, blocks: (h) => [h.first, [...only(h.first, "fixture:kept"), ...h.second]] }),
    status: "warn",
    codes: ["host:D2.rendered-twice"],
    strict: "fail",
    says: [/the second block \(\{context\} line 12\): it renders "fixture:kept" \(cgpmark-re-01\) 2 times, and the frame it renders least once/],
    lines: [12],
  },
  {
    name: "a host that renders every frame's content twice: twice is its once",
    build: () => reuseTx({ requery: true, blocks: (h) => [plain(h.first), `${plain(h.second)}\n\n${plain(h.second)}`] }),
    status: "pass",
  },
  {
    name: "nothing fetched twice",
    build: () => reuseTx({ blocks: (h) => [h.first, only(h.first, "fixture:kept")] }),
    status: "skip",
    says: [/fetched no frame of reuse twice/],
  },
  {
    name: "the frame fetched twice is in no later block",
    build: () => reuseTx({ requery: true, blocks: (h) => [h.first, only(h.second, "fixture:changed")] }),
    status: "skip",
    says: [/no later block in reuse holds "fixture:kept"/],
  },
]);
