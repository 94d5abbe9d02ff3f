import P1 from "../../checks/P1.ts";
import P2 from "../../checks/P2.ts";
import P3 from "../../checks/P3.ts";
import P4 from "../../checks/P4.ts";
import P5 from "../../checks/P5.ts";
import { budgetTokens } from "../../src/math/budget.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { REPRESENTATIONS } from "../../src/protocol/caps.ts";
import { preferStep } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

type Rep = (typeof REPRESENTATIONS)[number];

const SOURCE = "The whole source document, of which a compact frame carries a distillation.\n".repeat(8);
const HANDLE = (id: string) => ({ provider_id: "canned", uri: `cgp://canned/source/${id}` });

const full = (over: Record<string, unknown> = {}) => frame({ id: "frm_full", ...over });
const compact = (over: Record<string, unknown> = {}) =>
  frame({
    id: "frm_compact",
    representation: "compact",
    content: "abcd",
    token_cost: 1,
    content_digest: digestOfText("abcd"),
    canonical_content_hash: digestOfText(SOURCE),
    canonical_token_cost: budgetTokens(SOURCE),
    transform: { method: "truncate", implementation: "canned", version: "1" },
    content_ref: HANDLE("frm_compact"),
    ...over,
  });
const reference = (over: Record<string, unknown> = {}) =>
  frame({ id: "frm_ref", representation: "reference", content: undefined, token_cost: 0, canonical_content_hash: digestOfText(SOURCE), content_ref: HANDLE("frm_ref"), ...over });

const advertising = (representations: Rep[] | undefined, resolve?: boolean): object => ({
  ...ACK,
  capabilities: { query: { kinds: [] }, correlation: true, ...(representations ? { representations } : {}), ...(resolve === undefined ? {} : { resolve }) },
});

/**
 * The probes P1–P4 read, in the shared session: handshake 2–3, sample-query
 * 4/5, budget-squeeze 6/7, then one prefer-<r> query per representation given
 * (8/9, 10/11, …) in the order full, compact, reference.
 */
function shapes(sample: object[], prefer: Partial<Record<Rep, object[]>> = {}): () => TranscriptBuilder {
  return () => {
    const b = tx()
      .probe("handshake", "shared")
      .handshake(advertising(["full", "compact", "reference"], true))
      .probe("sample-query", "shared")
      .send("sample", query("sample-1"))
      .recv(frames("sample-1", sample))
      .probe("budget-squeeze", "shared")
      .send("generous", query("squeeze-1"))
      .recv(frames("squeeze-1", []))
      .probe("representations", "shared");
    for (const r of REPRESENTATIONS.filter((x) => prefer[x])) b.send(preferStep(r), query(`prefer-${r}`, { representation_preferences: [r] })).recv(frames(`prefer-${r}`, prefer[r]!));
    return b;
  };
}

const unanswered = (sample: object[]) => () =>
  tx()
    .probe("handshake", "shared")
    .handshake()
    .probe("sample-query", "shared")
    .send("sample", query("sample-1"))
    .recv(frames("sample-1", sample))
    .probe("budget-squeeze", "shared")
    .send("generous", query("squeeze-1"))
    .note("timeout", { waitedMs: 800, expecting: "a reply" });

const at5 = (id: string) => `frame "${id}" \\(result\\.frames\\[0\\], line 5\\)`;

// ---------------------------------------------------------------- P1

runCases(P1, [
  {
    name: "full frames, tagged or not",
    build: shapes([full(), full({ id: "frm_tagged", representation: "full" })], { full: [full()] }),
    status: "pass",
    says: [/every full frame has the full shape/],
  },
  {
    name: "a full frame without content",
    build: shapes([full({ content: undefined, token_cost: 0 })]),
    status: "fail",
    says: [new RegExp(`${at5("frm_full")} is full but lacks content \\| present: content; absent: content_ref, transform, canonical_content_hash \\| missing content`)],
  },
  {
    name: "a compact frame that forgot its representation tag",
    build: shapes([compact({ representation: undefined })]),
    status: "fail",
    says: [new RegExp(`${at5("frm_compact")} is full but carries content_ref, transform, canonical_content_hash \\| .* \\| present content_ref, transform, canonical_content_hash`)],
  },
  {
    name: "a full frame lacking content and carrying a transform",
    build: shapes([full({ content: undefined, token_cost: 0, transform: { method: "summarise" } })]),
    status: "fail",
    says: [/is full but lacks content and carries transform/],
  },
  { name: "only compact frames served", build: shapes([compact()], { compact: [compact()] }), status: "skip", says: [/no full frame was served/] },
  { name: "a query left unanswered", build: unanswered([full()]), status: "fail", untestable: true, says: [/query sent at line 6 \(probe budget-squeeze, step generous\) got no frames or error reply: no reply within 800 ms/] },
]);

// ---------------------------------------------------------------- P2

runCases(P2, [
  { name: "a compact frame with all five members", build: shapes([full()], { compact: [compact()] }), status: "pass", says: [/every compact frame has the compact shape/] },
  {
    name: "a compact frame without its transform and handle",
    build: shapes([compact({ transform: undefined, content_ref: undefined })]),
    status: "fail",
    says: [new RegExp(`${at5("frm_compact")} is compact but lacks transform, content_ref \\| present: content, content_digest, canonical_content_hash, transform, content_ref \\| missing transform, content_ref`)],
  },
  { name: "a compact frame with a null content_digest", build: shapes([compact({ content_digest: null })]), status: "fail", says: [/is compact but lacks content_digest/] },
  {
    name: "a compact frame served to the representations probe, without canonical_content_hash",
    build: shapes([full()], { full: [full()], compact: [compact({ canonical_content_hash: undefined })] }),
    status: "fail",
    says: [/frame "frm_compact" \(result\.frames\[0\], line 11\) is compact but lacks canonical_content_hash/],
  },
  { name: "no compact frame served", build: shapes([full()]), status: "skip", says: [/no compact frame was served/] },
]);

// ---------------------------------------------------------------- P3

runCases(P3, [
  { name: "a reference frame: a handle and a hash, no content", build: shapes([reference()]), status: "pass", says: [/every reference frame has the reference shape/] },
  {
    name: "a reference frame with empty content",
    build: shapes([reference({ content: "" })]),
    status: "fail",
    says: [new RegExp(`${at5("frm_ref")} is reference but carries content \\| present: content_ref, canonical_content_hash; absent: content, content_digest, transform \\| present content`)],
  },
  {
    name: "a reference frame with a content_digest and no canonical_content_hash",
    build: shapes([reference({ canonical_content_hash: undefined, content_digest: digestOfText(SOURCE) })]),
    status: "fail",
    says: [/is reference but lacks canonical_content_hash and carries content_digest \| .* \| missing canonical_content_hash; present content_digest/],
  },
  { name: "a reference frame with no handle", build: shapes([reference({ content_ref: undefined })]), status: "fail", says: [/is reference but lacks content_ref/] },
  { name: "no reference frame served", build: shapes([full()], { compact: [compact()] }), status: "skip", says: [/no reference frame was served/] },
]);

// ---------------------------------------------------------------- P4

runCases(P4, [
  {
    name: "compact costs its inline bytes, reference costs nothing",
    build: shapes([full()], { compact: [compact()], reference: [reference()] }),
    status: "pass",
    says: [/every compact frame declares the cost of its inline bytes/, /every reference frame declares the cost of its inline bytes/],
  },
  {
    name: "a reference frame declaring its source's cost",
    build: shapes([reference({ token_cost: 12 })]),
    status: "fail",
    says: [new RegExp(`${at5("frm_ref")} is a reference frame \\(no inline content\\) but declares token_cost 12 \\| 0 \\| 12`)],
  },
  {
    name: "a compact frame declaring its canonical_token_cost",
    build: shapes([compact({ token_cost: budgetTokens(SOURCE) })]),
    status: "fail",
    says: [new RegExp(`${at5("frm_compact")} is compact: its inline content is 4 UTF-8 bytes → ceil\\(4/4\\) = 1, but it declares token_cost ${budgetTokens(SOURCE)} \\(its canonical_token_cost: the full-source cost\\)`)],
  },
  {
    name: "a compact frame counting UTF-16 code units",
    build: shapes([compact({ content: "日本語のテキスト", content_digest: digestOfText("日本語のテキスト"), token_cost: 2 })]),
    status: "fail",
    says: [/is compact: its inline content is 24 UTF-8 bytes → ceil\(24\/4\) = 6, but it declares token_cost 2 \| 6 \| 2$/m],
  },
  { name: "only full frames served", build: shapes([full()], { full: [full()] }), status: "skip", says: [/no compact or reference frame was served/] },
  { name: "a query left unanswered", build: unanswered([compact()]), status: "fail", untestable: true, says: [/query sent at line 6 .* got no frames or error reply: no reply within 800 ms/] },
]);

// ---------------------------------------------------------------- P5

interface Negotiation {
  representations?: Rep[];
  resolve?: boolean;
  /** Answers to the prefer-<r> queries (default: frames in r). */
  prefer?: Partial<Record<Rep, object>>;
  /** The answer to the unadvertised preference (default: unsupported_representation); null: none. */
  unadvertised?: object | null;
}

/**
 * Handshake (shared) 2–3; representations: prefer-<r> for each advertised r
 * (full 4/5, compact 6/7); unadvertised-representation in its own session:
 * handshake 8–9, the unadvertised query 10, its answer 11.
 */
function negotiation(o: Negotiation = {}): () => TranscriptBuilder {
  return () => {
    const list = o.representations;
    const ack = advertising(list, "resolve" in o ? o.resolve : list?.some((r) => r !== "full") ? true : undefined);
    const b = tx().probe("handshake", "shared").handshake(ack).probe("representations", "shared");
    const shapeOf: Record<Rep, () => object> = { full, compact, reference };
    for (const r of REPRESENTATIONS.filter((x) => list?.includes(x))) {
      b.send(preferStep(r), query(`prefer-${r}`, { representation_preferences: [r] })).recv(o.prefer?.[r] ?? frames(`prefer-${r}`, [shapeOf[r]()]));
    }
    b.probe("unadvertised-representation").handshake(ack);
    const missing = REPRESENTATIONS.find((r) => !(list ?? ["full"]).includes(r));
    if (!missing) return b;
    b.send("unadvertised", query("unadv-1", { representation_preferences: [missing] }));
    if (o.unadvertised === null) return b.note("timeout", { waitedMs: 800, expecting: "a reply" });
    return b.recv(o.unadvertised ?? { type: "error", id: "unadv-1", code: "unsupported_representation", message: `not offered: ${missing}` });
  };
}

const FULL_COMPACT: Rep[] = ["full", "compact"];

runCases(P5, [
  {
    name: "advertised with resolve, honoured, and the unadvertised refused by name",
    build: negotiation({ representations: FULL_COMPACT }),
    status: "pass",
    says: [/advertises compact with resolve: true/, /preferring full: every frame is in an advertised representation/, /preferring compact: every frame is in an advertised representation/, /preferring the unadvertised reference: error unsupported_representation/],
  },
  {
    name: "the unadvertised preference falls back to full",
    build: negotiation({ representations: FULL_COMPACT, unadvertised: frames("unadv-1", [full()]) }),
    status: "pass",
    says: [/preferring the unadvertised reference: fell back to full/],
  },
  {
    name: "nothing advertised: full only, compact is the unadvertised one",
    build: negotiation(),
    status: "pass",
    says: [/preferring the unadvertised compact: error unsupported_representation/],
  },
  {
    name: "compact advertised without resolve",
    build: negotiation({ representations: FULL_COMPACT, resolve: undefined }),
    status: "fail",
    says: [/advertises compact without resolve: true \(§6\.4: compact\/reference ⇒ resolve\) \| resolve: true \| resolve: absent/],
  },
  {
    name: "an advertised representation refused",
    build: negotiation({ representations: FULL_COMPACT, prefer: { compact: { type: "error", id: "prefer-compact", code: "unsupported_representation", message: "no" } } }),
    status: "fail",
    says: [/a query preferring the advertised representation compact was refused with error "unsupported_representation" \| frames \| error "unsupported_representation"/],
  },
  {
    name: "a representation served that was never advertised",
    build: negotiation({ representations: FULL_COMPACT, prefer: { compact: frames("prefer-compact", [compact(), reference()]) } }),
    status: "fail",
    says: [/preferring compact, the provider served "frm_ref" as "reference", which it does not advertise \| one of full, compact \| "reference"/],
  },
  {
    name: "the unadvertised preference refused with another code",
    build: negotiation({ representations: FULL_COMPACT, unadvertised: { type: "error", id: "unadv-1", code: "bad_request", message: "?" } }),
    status: "warn",
    says: [/preferring the unadvertised reference, the provider neither replied unsupported_representation nor fell back to full \| .* \| error "bad_request"/],
  },
  {
    name: "the unadvertised preference served anyway",
    build: negotiation({ representations: FULL_COMPACT, unadvertised: frames("unadv-1", [reference()]) }),
    status: "warn",
    says: [/neither replied unsupported_representation nor fell back to full \| .* \| frames in \["reference"\]/],
  },
  {
    name: "the unadvertised preference left unanswered",
    build: negotiation({ representations: FULL_COMPACT, unadvertised: null }),
    status: "fail",
    says: [/a query preferring the unadvertised reference \(line 10\) got no answer: no reply within 800 ms/],
  },
]);
