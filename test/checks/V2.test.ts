import V2 from "../../checks/V2.ts";
import { type Obj } from "../../src/protocol/envelope.ts";
import { VERIFY } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { query } from "../helpers/transcript.ts";
import { IDS, notDeclared, REQUESTED, undigested, verify, verifySession } from "../helpers/verify.ts";

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
  {
    name: "unknown for a changed digest and a stranger",
    build: verify({
      "verify-mutated": (vs) => vs.map((v) => ({ frame: v.frame, status: "unknown" })),
      "verify-never-served": (vs) => vs.map((v) => ({ ...v, status: "unknown" })),
    }),
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
        `verify of identities whose digest differs by one hex digit from what it served answered "valid" for ${idName(REQUESTED["verify-mutated"][0]!)}; "valid" for ${idName(REQUESTED["verify-mutated"][1]!)} \\| stale, gone or unknown \\| "valid"`,
      ),
    ],
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
    // A host SHOULD not send digest-less identities (V1): what a provider owes them is a SHOULD.
    name: "digest-less identities dropped from the reply: a warning",
    build: verify({ "verify-digestless": () => [] }),
    status: "warn",
    says: [/2 of 2 identities got no verdict echoing them in full: \("canned", "frm_1", absent\)/],
  },
  {
    name: "a case-flipped id called valid",
    build: verify({ "verify-case-flipped": (vs) => vs.map((v) => ({ ...v, status: "valid" })) }),
    status: "fail",
    says: [/verify of identities whose frame id differs from a served one only in case answered "valid" for \("canned", "FRM_1"/],
  },
]);
