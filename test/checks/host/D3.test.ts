import D3 from "../../../checks/host/D3.ts";
import { runHostCases } from "../../helpers/host-transcript.ts";
import { honestBlocks, only, reuseTx } from "../../helpers/reuse.ts";

// handshake 2-3, query 4-5, verify 6-7, query 8-9, shutdown 10, blocks from 11.
runHostCases(D3, [
  {
    name: "an honest second turn: the digest-less frame fetched again",
    build: () => reuseTx({ requery: true, blocks: honestBlocks }),
    status: "pass",
    says: [
      /the block composed after the first answer \(\{context\} line 12\) holds no stored copy of "fixture:undigested" \(cgpmark-re-06, no content_digest\), served at line 5 without a content_digest/,
    ],
  },
  {
    name: "its stored copy reused beside the second answer",
    build: () =>
      reuseTx({ requery: true, blocks: (h) => [h.first, [...only(h.first, "fixture:undigested"), ...only(h.second, "fixture:kept", "fixture:changed")]] }),
    status: "fail",
    codes: ["host:D3.stored-copy"],
    says: [
      /the second block \(\{context\} line 12\): it holds the stored copy of "fixture:undigested" \(cgpmark-re-06, no content_digest\), served at line 5 without a content_digest, not served again; it was composed after a later query's answer, since it holds cgpmark-re-12, first served at line 9/,
    ],
    lines: [12, 9],
  },
  {
    name: "composed once, at the end: the stored copy beside the later answer's frames fails in that one block",
    build: () => reuseTx({ requery: true, blocks: (h) => [[...only(h.first, "fixture:undigested"), ...only(h.second, "fixture:kept", "fixture:changed")]] }),
    status: "fail",
    codes: ["host:D3.stored-copy"],
    says: [/the first block \(\{context\} line 11\): it holds the stored copy of "fixture:undigested"/],
  },
  {
    name: "no verify, and the stored copy reused after a query again: still a failure",
    build: () =>
      reuseTx({ verify: false, requery: true, blocks: (h) => [h.first, [...only(h.first, "fixture:undigested"), ...only(h.second, "fixture:changed")]] }),
    status: "fail",
    codes: ["host:D3.stored-copy"],
  },
  {
    name: "reused with no later query: not shown across queries, a warning",
    build: () => reuseTx({ blocks: (h) => [h.first, only(h.first, "fixture:kept", "fixture:undigested")] }),
    status: "warn",
    codes: ["host:D3.stored-copy-unshown"],
    strict: "warn",
    says: [/no later query shows in it, and reuse among one query's compositions is not across queries: this warns/],
  },
  {
    name: "re-verified valid: D3's 're-verifies it'",
    build: () =>
      reuseTx({
        verify: (first) => [
          ...first.map((f) => ({ provider_id: "cgp-conform-reference", frame_id: f.id, ...(f.content_digest ? { content_digest: f.content_digest } : {}) })),
        ],
        verdicts: (vs) => vs.map((v) => ((v.frame as { frame_id: string }).frame_id === "fixture:undigested" ? { ...v, status: "valid" } : v)),
        blocks: (h) => [h.first, only(h.first, "fixture:kept", "fixture:undigested")],
      }),
    status: "skip",
    says: [/re-verified, as D3 allows/],
  },
  {
    name: "composed once",
    build: () => reuseTx({ requery: true, blocks: (h) => [h.first] }),
    status: "skip",
  },
]);
