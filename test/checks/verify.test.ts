import V1 from "../../checks/V1.ts";
import V2 from "../../checks/V2.ts";
import V3 from "../../checks/V3.ts";
import V4 from "../../checks/V4.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { identities, mutate } from "../../src/probe/verify.ts";
import { NEVER_SERVED_ID } from "../../src/protocol/probes.ts";
import { VERIFY_STEPS, type VerifyStep } from "../../checks/kit/verify.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";
import { type Obj } from "../../src/protocol/envelope.ts";

const VERIFY_ACK = { ...ACK, capabilities: { query: { kinds: [] }, correlation: true, verify: true } };
const DIGEST_1 = digestOfText("abcd");
const DIGEST_2 = digestOfText("efgh");
const SERVED = [frame({ id: "frm_1", content_digest: DIGEST_1 }), frame({ id: "frm_2", content: "efgh", content_digest: DIGEST_2 })];
const IDS = identities("canned", SERVED as Obj[]);

/** What the probe sends in each step, as it builds it. */
const REQUESTED: Record<VerifyStep, Obj[]> = {
  "verify-served": IDS,
  "verify-mutated": IDS.map((i) => ({ ...i, content_digest: mutate(i.content_digest as string) })),
  "verify-never-served": [{ provider_id: "canned", frame_id: NEVER_SERVED_ID, content_digest: digestOfText(NEVER_SERVED_ID) }],
};

/** An honest verdict for an identity requested in a step. */
function honest(step: VerifyStep, id: Obj, i: number): Obj {
  if (step === "verify-served") return { frame: id, status: "valid" };
  if (step === "verify-mutated") return { frame: id, status: "stale", replacement_digest: IDS[i]!.content_digest };
  return { frame: id, status: "gone" };
}

const verified = (step: VerifyStep, verdicts: Obj[]): object => ({ type: "verified", id: step, response: { verdicts } });

type Replies = Partial<Record<VerifyStep, object | null | ((verdicts: Obj[]) => Obj[])>>;

/**
 * Probe verify in the shared session: handshake 2–3, the identity query 4/5,
 * verify-served 6/7, verify-mutated 8/9, verify-never-served 10/11. A reply
 * is a whole envelope, a rewrite of the honest verdicts, or null (no reply:
 * the probe stops).
 */
function verify(replies: Replies = {}, opts: { ack?: object; served?: object[] } = {}): () => TranscriptBuilder {
  return () => {
    const served = opts.served ?? SERVED;
    const b = tx().probe("handshake", "shared").handshake(opts.ack ?? VERIFY_ACK).probe("verify", "shared");
    if (opts.ack) return b;
    b.send("served", query("verify-q")).recv(frames("verify-q", served));
    if (identities("canned", served as Obj[]).length === 0) return b;
    for (const step of VERIFY_STEPS) {
      b.send(step, { type: "verify", id: step, request: { frames: REQUESTED[step] } });
      const r = replies[step];
      if (r === null) return b.note("timeout", { waitedMs: 800, expecting: "a reply" });
      const mine = REQUESTED[step].map((id, i) => honest(step, id, i));
      b.recv(typeof r === "function" ? verified(step, r(mine)) : (r ?? verified(step, mine)));
    }
    return b;
  };
}

const notDeclared = verify({}, { ack: ACK });
const undigested = verify({}, { served: [frame()] });

// ---------------------------------------------------------------- V1

runCases(V1, [
  { name: "identities and statuses only", build: verify(), status: "pass", says: [/no verdict carries a frame body/] },
  {
    name: "a verdict carrying the content",
    build: verify({ "verify-served": (vs) => vs.map((v) => ({ ...v, content: "abcd" })) }),
    status: "fail",
    says: [/a verdict in reply to verify-served carries content: a body travelled \| frame identity, status, and at most a replacement_digest \| \{"frame":/],
  },
  {
    name: "a stale verdict carrying the current frame",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ ...v, frame: { ...(v.frame as Obj), content: "abcd" }, body: "abcd" })) }),
    status: "fail",
    says: [/a verdict in reply to verify-mutated carries body, frame\.content: a body travelled/],
  },
  { name: "verify not declared", build: notDeclared, status: "skip", says: [/capabilities\.verify is not declared/] },
  { name: "no served frame has a content_digest", build: undigested, status: "skip", says: [/there was no identity to verify/] },
  { name: "no verdict at all", build: verify({ "verify-served": () => [], "verify-mutated": () => [], "verify-never-served": () => [] }), status: "skip", says: [/no verdict was received/] },
]);

// ---------------------------------------------------------------- V2

const idName = (id: Obj): string => `\\("canned", "${id.frame_id}", "${id.content_digest}"\\)`;

runCases(V2, [
  {
    name: "valid, then stale, then gone",
    build: verify(),
    status: "pass",
    says: [
      /verify of identities it served moments ago, unchanged: no verdict is stale or gone or unknown/,
      /verify of identities whose digest differs by one hex digit from what it served: no verdict is valid/,
      /verify of an identity it never served: no verdict is valid or stale/,
    ],
  },
  { name: "unknown for a changed digest and a stranger", build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ frame: v.frame, status: "unknown" })), "verify-never-served": (vs) => vs.map((v) => ({ ...v, status: "unknown" })) }), status: "pass" },
  { name: "verify not declared", build: notDeclared, status: "skip", says: [/capabilities\.verify is not declared: a host re-queries instead/] },
  { name: "no served frame has a content_digest", build: undigested, status: "skip", says: [/there was no identity to verify/] },
  {
    name: "verify answered with an error",
    build: verify({ "verify-served": { type: "error", id: "verify-served", code: "bad_request", message: "verify?" } }),
    status: "fail",
    says: [/verify of identities it served moments ago, unchanged \(line 6\) got no verified reply \| a verified envelope \| error "bad_request"/],
  },
  {
    name: "verify left unanswered",
    build: verify({ "verify-mutated": null }),
    status: "fail",
    says: [/verify of identities whose digest differs by one hex digit from what it served \(line 8\) got no verified reply \| a verified envelope \| no reply within 800 ms/],
  },
  {
    name: "a hollow reply: one identity gets no verdict",
    build: verify({ "verify-served": (vs) => vs.slice(0, 1) }),
    status: "fail",
    says: [new RegExp(`1 of 2 identities got no verdict echoing them in full: ${idName(IDS[1]!)} \\| one verdict per identity, echoing provider_id, frame_id and content_digest \\| 1 verdicts`)],
  },
  {
    name: "verdicts echoing the frame id alone",
    build: verify({ "verify-served": (vs) => vs.map((v) => ({ ...v, frame: { provider_id: "canned", frame_id: (v.frame as Obj).frame_id } })) }),
    status: "fail",
    says: [/2 of 2 identities got no verdict echoing them in full/],
  },
  {
    name: "a rubber stamp: a changed digest answered valid",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ frame: v.frame, status: "valid" })) }),
    status: "fail",
    says: [new RegExp(`verify of identities whose digest differs by one hex digit from what it served answered "valid" for ${idName(REQUESTED["verify-mutated"][0]!)}; "valid" for ${idName(REQUESTED["verify-mutated"][1]!)} \\| stale, gone or unknown \\| "valid"`)],
  },
  {
    name: "a never-served identity answered stale",
    build: verify({ "verify-never-served": (vs) => vs.map((v) => ({ ...v, status: "stale" })) }),
    status: "fail",
    says: [/verify of an identity it never served answered "stale" for \("canned", "cgp-conform:never-served", "sha256:[0-9a-f]{64}"\) \| gone or unknown/],
  },
  {
    name: "what was just served answered unknown",
    build: verify({ "verify-served": (vs) => vs.map((v) => ({ ...v, status: "unknown" })) }),
    status: "fail",
    says: [/verify of identities it served moments ago, unchanged answered "unknown" for .* \| valid \| "unknown"/],
  },
]);

runCases(V2, [
  {
    name: "the query for identities to verify gets no answer",
    build: () => tx().probe("handshake", "shared").handshake(VERIFY_ACK).probe("verify", "shared").send("served", query("verify-q")).note("timeout", { waitedMs: 800, expecting: "a reply" }),
    status: "fail",
    untestable: true,
    says: [/\(line 4\).*no reply within 800 ms/],
  },
]);

// ---------------------------------------------------------------- V3

runCases(V3, [
  { name: "all four statuses in the vocabulary", build: verify({ "verify-never-served": (vs) => vs.map((v) => ({ ...v, status: "unknown" })) }), status: "pass", says: [/every verdict status is in the vocabulary/] },
  {
    name: "a status outside the vocabulary",
    build: verify({ "verify-served": (vs) => vs.map((v) => ({ ...v, status: "fresh" })) }),
    status: "fail",
    says: [/a verdict in reply to verify-served has status "fresh" \| valid \| stale \| gone \| unknown \| "fresh"/],
  },
  { name: "an uppercase status", build: verify({ "verify-never-served": (vs) => vs.map((v) => ({ ...v, status: "GONE" })) }), status: "fail", says: [/reply to verify-never-served has status "GONE"/] },
  { name: "no status", build: verify({ "verify-served": (vs) => vs.map((v) => ({ frame: v.frame })) }), status: "fail", says: [/has status absent/] },
  { name: "verify not declared", build: notDeclared, status: "skip" },
]);

// ---------------------------------------------------------------- V4

runCases(V4, [
  { name: "stale verdicts with replacement digests", build: verify(), status: "pass", says: [/every replacement_digest is sha256:<64 lowercase hex>/] },
  {
    name: "a replacement that is a body",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ ...v, replacement_digest: "abcd" })) }),
    status: "fail",
    says: [/a "stale" verdict in reply to verify-mutated has replacement_digest "abcd" \| sha256:<64 lowercase hex> \| "abcd"/],
  },
  {
    name: "a replacement digest in uppercase hex",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ ...v, replacement_digest: String(v.replacement_digest).replace("sha256:", "SHA256:") })) }),
    status: "fail",
    says: [/has replacement_digest "SHA256:[0-9a-f]{64}"/],
  },
  {
    name: "stale verdicts without replacement digests (it MAY carry one)",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ frame: v.frame, status: "stale" })) }),
    status: "skip",
    says: [/no verdict carried a replacement_digest/],
  },
  { name: "verify not declared", build: notDeclared, status: "skip", says: [/capabilities\.verify is not declared/] },
]);
