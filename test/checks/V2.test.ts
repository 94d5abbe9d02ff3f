import V2 from "../../checks/V2.ts";
import { type Obj } from "../../src/protocol/envelope.ts";
import { VERIFY } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, query } from "../helpers/transcript.ts";
import { IDS, notDeclared, REQUESTED, SERVED, undigested, verify, verifySession } from "../helpers/verify.ts";

const idName = (id: Obj): string => `\\("canned", "${id.frame_id}", "${id.content_digest}"\\)`;

runCases(V2, [
  {
    name: "valid, then stale, then gone",
    build: verify(),
    status: "pass",
    says: [
      /verify of identities it served moments ago, unchanged: every identity answered valid/,
      /verify of identities whose digest differs by one hex digit from what it served: every identity answered stale/,
      /verify of an identity it never served: no verdict is valid/,
    ],
  },
  {
    name: "unknown for a stranger",
    build: verify({ "verify-never-served": (vs) => vs.map((v) => ({ ...v, status: "unknown" })) }),
    status: "pass",
  },
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
    says: [
      /verify of identities whose digest differs by one hex digit from what it served \(line 8\) got no verified reply \| a verified envelope \| no reply within 800 ms/,
    ],
  },
  {
    name: "a hollow reply: one identity gets no verdict",
    build: verify({ "verify-served": (vs) => vs.slice(0, 1) }),
    status: "fail",
    says: [
      new RegExp(
        `1 of 2 identities got no verdict echoing them in full: ${idName(IDS[1]!)} \\| one verdict per identity, echoing provider_id, frame_id and content_digest \\| 1 verdicts`,
      ),
    ],
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
    says: [
      new RegExp(
        `verify of identities whose digest differs by one hex digit from what it served answered "valid" for ${idName(REQUESTED["verify-mutated"][0]!)}; "valid" for ${idName(REQUESTED["verify-mutated"][1]!)} \\| stale \\| "valid"`,
      ),
    ],
  },
  {
    name: "what was just served answered unknown",
    build: verify({ "verify-served": (vs) => vs.map((v) => ({ ...v, status: "unknown" })) }),
    status: "fail",
    says: [/verify of identities it served moments ago, unchanged answered "unknown" for .* \| valid \| "unknown"/],
  },
]);

// context-reuse §4: "stale when it differs on a frame it still serves" (MUST); it still serves what it just called valid.
runCases(V2, [
  {
    name: "a changed digest of a frame it still serves answered unknown",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ frame: v.frame, status: "unknown" })) }),
    status: "fail",
    says: [
      new RegExp(
        `verify of identities whose digest differs by one hex digit from what it served, for frames it still serves \\(it answered valid for them unchanged, line 7\\), answered "unknown" for ${idName(REQUESTED["verify-mutated"][0]!)}; "unknown" for ${idName(REQUESTED["verify-mutated"][1]!)} \\| stale \\| "unknown"`,
      ),
    ],
  },
  {
    name: "a changed digest of a frame it still serves answered gone",
    build: verify({ "verify-mutated": (vs) => vs.map((v, i) => (i === 1 ? { frame: v.frame, status: "gone" } : v)) }),
    status: "fail",
    says: [new RegExp(`for frames it still serves .*answered "gone" for ${idName(REQUESTED["verify-mutated"][1]!)} \\| stale \\| "gone"`)],
  },
  {
    name: "a changed digest of a frame it still serves left out",
    build: verify({ "verify-mutated": (vs) => vs.slice(1) }),
    status: "fail",
    says: [
      new RegExp(
        `1 of 2 identities got no verdict echoing them in full: ${idName(REQUESTED["verify-mutated"][0]!)} \\(verify of identities whose digest differs by one hex digit from what it served, for frames it still serves: a host reads the silence as unknown, not stale\\)`,
      ),
    ],
  },
  {
    // It called frm_2 gone unchanged (a failure of its own): it no longer serves it, so unknown for its changed digest is honest.
    // Gone for what it served moments ago informs (its source may have gone since), and is not served again here.
    name: "a changed digest of a frame it did not confirm answered unknown",
    build: verify(
      {
        "verify-served": (vs) => vs.map((v, i) => (i === 1 ? { ...v, status: "gone" } : v)),
        "verify-mutated": (vs) => vs.map((v, i) => (i === 1 ? { frame: v.frame, status: "unknown" } : v)),
        "verify-digestless": (vs) => vs.map((v, i) => (i === 1 ? { frame: v.frame, status: "gone" } : v)),
      },
      { again: [SERVED[0]!] },
    ),
    status: "info",
    says: [/verify of identities it served moments ago answered gone for \("canned", "frm_2"/],
    never: [/for frames it still serves/],
  },
]);

// V2 tells the host to read a missing verdict as unknown, and V1 forbids only a false valid: neither fails nor warns where no frame is served.
runCases(V2, [
  {
    name: "a never-served identity answered stale",
    build: verify({ "verify-never-served": (vs) => vs.map((v) => ({ ...v, status: "stale" })) }),
    status: "pass",
    says: [/verify of an identity it never served: no verdict is valid/],
  },
  {
    name: "a never-served identity left out of the reply",
    build: verify({ "verify-never-served": () => [] }),
    status: "pass",
    says: [/verify of an identity it never served: no verdict is valid; 1 left out, which a host reads as unknown/],
  },
  {
    name: "case-flipped ids answered stale",
    build: verify({ "verify-case-flipped": (vs) => vs.map((v) => ({ ...v, status: "stale", replacement_digest: IDS[0]!.content_digest })) }),
    status: "pass",
  },
  {
    name: "case-flipped ids left out of the reply",
    build: verify({ "verify-case-flipped": () => [] }),
    status: "pass",
    says: [/verify of identities whose frame id differs from a served one only in case: no verdict is valid; 2 left out/],
  },
]);

runCases(V2, [
  {
    name: "the query for identities to verify gets no answer",
    build: () => verifySession().send(VERIFY.steps.served, query("verify-q")).note("timeout", { waitedMs: 800, expecting: "a reply" }),
    status: "unobserved",
    untestable: true,
    says: [/\(line 4\).*no reply within 800 ms/],
  },
  {
    name: "digest-less identities echoed with a null digest, or with the digest served now: both echo them",
    build: verify({
      "verify-digestless": (vs) => vs.map((v, i) => ({ ...v, frame: { ...(v.frame as Obj), content_digest: i === 0 ? null : "sha256:" + "a".repeat(64) } })),
    }),
    status: "pass",
    says: [/verify of served identities without a content_digest: a verified reply/],
  },
  {
    // "the provider answers one verdict each" carries no keyword, and a host SHOULD not send them (V1): a warning, never promoted.
    name: "digest-less identities dropped from the reply: a warning",
    build: verify({ "verify-digestless": () => [] }),
    status: "warn",
    strict: "warn",
    says: [/2 of 2 identities got no verdict echoing them in full: \("canned", "frm_1", absent\)/],
  },
  {
    name: "digest-less identities refused with bad_request: a warning",
    build: verify({ "verify-digestless": { type: "error", id: "verify-digestless", code: "bad_request", message: "no digest" } }),
    status: "warn",
    strict: "warn",
    says: [/verify of served identities without a content_digest \(line 16\) got no verified reply \| a verified envelope \| error "bad_request"/],
  },
  {
    // No sentence says ids compare exactly: a provider whose ids fold case names the frame it served, by the digest it serves.
    name: "a case-flipped id called valid, by the digest it answered valid for moments ago",
    build: verify({ "verify-case-flipped": (vs) => vs.map((v) => ({ ...v, status: "valid" })) }),
    status: "pass",
    says: [
      /verify of identities whose frame id differs from a served one only in case: 2 answered valid, each for a frame it answered valid for moments ago with the same digest, its id compared without case/,
    ],
  },
  {
    name: "a case-flipped id called valid for a frame it did not confirm",
    build: verify({
      "verify-served": (vs) => vs.map((v, i) => (i === 0 ? { ...v, status: "gone" } : v)),
      "verify-case-flipped": (vs) => vs.map((v) => ({ ...v, status: "valid" })),
    }),
    status: "fail",
    codes: ["V2.valid-for-changed"],
    says: [/verify of identities whose frame id differs from a served one only in case answered "valid" for \("canned", "FRM_1"/],
    never: [/"valid" for \("canned", "FRM_2"/],
  },
]);

const CHANGED = `sha256:${"b".repeat(64)}`;

// A frame whose source changed (or went) between the query and the verify is honestly stale (or gone): it informs,
// and fails only where the run shows the bytes held still: the same query sent again right after serves the frame
// with the very digest presented, or the provider's own stale verdict elsewhere names that digest as current.
const MOVED = [frame({ id: "frm_1", content: "abcd, edited", content_digest: CHANGED })];
runCases(V2, [
  {
    name: "what was just served answered stale, its source changed since the query",
    build: verify(
      {
        "verify-served": (vs) => vs.map((v, i) => (i === 0 ? { ...v, status: "stale", replacement_digest: CHANGED } : v)),
        "verify-mutated": (vs) => vs.map((v, i) => (i === 0 ? { ...v, replacement_digest: CHANGED } : v)),
        "verify-digestless": (vs) => vs.map((v, i) => (i === 0 ? { ...v, replacement_digest: CHANGED } : v)),
      },
      { again: MOVED },
    ),
    status: "info",
    codes: ["V2.stale-served"],
    says: [
      /verify of identities it served moments ago answered stale for \("canned", "frm_1", .*their sources may have changed \(the same query again, line 11, did not serve them with the digest presented\)/,
    ],
    never: [/answered "stale"/],
  },
  {
    // A bounded live index may drop the frame between the two verifies: the same query again no longer serves it.
    name: "a changed digest answered gone, for a frame the same query again no longer serves",
    build: verify(
      {
        "verify-mutated": (vs) => vs.map((v, i) => (i === 0 ? { frame: v.frame, status: "gone" } : v)),
        "verify-digestless": (vs) => vs.map((v, i) => (i === 0 ? { frame: v.frame, status: "gone" } : v)),
      },
      { again: [SERVED[1]!] },
    ),
    status: "pass",
  },
  {
    name: "a changed digest answered gone, for a frame the same query again still serves",
    build: verify({ "verify-mutated": (vs) => vs.map((v, i) => (i === 0 ? { frame: v.frame, status: "gone" } : v)) }),
    status: "fail",
    codes: ["V2.wrong-status"],
  },
  {
    name: "what was just served answered stale, and the same query again serves it with the digest presented",
    build: verify({ "verify-served": (vs) => vs.map((v, i) => (i === 0 ? { ...v, status: "stale", replacement_digest: CHANGED } : v)) }),
    status: "fail",
    codes: ["V2.stale-unchanged"],
    says: [
      /answered stale for \("canned", "frm_1", .*; yet the same query sent again after \(line 11\) served it with the very digest presented: the bytes held still, so they are the bytes it serves \| valid: the presented digest is the one it serves \| "stale"/,
    ],
  },
  {
    name: "what was just served answered gone, its source removed since the query",
    build: verify(
      {
        "verify-served": (vs) => vs.map((v, i) => (i === 0 ? { frame: v.frame, status: "gone" } : v)),
        "verify-mutated": (vs) => vs.map((v, i) => (i === 0 ? { frame: v.frame, status: "gone" } : v)),
        "verify-digestless": (vs) => vs.map((v, i) => (i === 0 ? { frame: v.frame, status: "gone" } : v)),
      },
      { again: [SERVED[1]!] },
    ),
    status: "info",
    codes: ["V2.stale-served"],
    says: [/answered gone for \("canned", "frm_1"/],
  },
  {
    name: "what was just served answered gone, and the same query again serves it unchanged",
    build: verify({ "verify-served": (vs) => vs.map((v) => ({ frame: v.frame, status: "gone" })) }),
    status: "fail",
    codes: ["V2.stale-unchanged"],
    says: [/answered gone for .*; gone for .*; yet the same query sent again after \(line 11\) served them with the very digest presented/],
  },
  {
    name: "what was just served answered stale, while the changed digest's stale verdict names it current (no query again)",
    build: verify(
      { "verify-served": (vs) => vs.map((v) => ({ ...v, status: "stale", replacement_digest: (v.frame as Obj).content_digest })) },
      { again: null },
    ),
    status: "fail",
    codes: ["V2.stale-unchanged"],
    says: [
      /verify of identities it served moments ago answered stale for .*; yet its own stale verdict for the same frame \(line 9\) gives that very digest as its replacement_digest, the digest it serves now \| valid: the presented digest is the one it serves \| "stale"/,
    ],
  },
  {
    // Its replacement_digest echoes what each verdict was presented (V4's warning): nothing shows what it serves now.
    name: "what was just served answered stale by a provider that echoes the presented digest",
    build: verify(
      {
        "verify-served": (vs) => vs.map((v) => ({ ...v, status: "stale", replacement_digest: (v.frame as Obj).content_digest })),
        "verify-mutated": (vs) => vs.map((v) => ({ ...v, replacement_digest: (v.frame as Obj).content_digest })),
        "verify-digestless": (vs) => vs.map((v) => ({ ...v, status: "unknown", replacement_digest: undefined })),
      },
      { again: [] },
    ),
    status: "info",
    codes: ["V2.stale-served"],
  },
]);
