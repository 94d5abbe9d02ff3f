import V4 from "../../checks/V4.ts";
import { runCases } from "../helpers/cases.ts";
import { type Obj } from "../../src/protocol/envelope.ts";
import { frame } from "../helpers/transcript.ts";
import { notDeclared, SERVED, undigested, verify } from "../helpers/verify.ts";

runCases(V4, [
  { name: "stale verdicts with replacement digests", build: verify(), status: "pass", says: [/every replacement_digest is sha256:<64 lowercase hex>/] },
  {
    name: "a replacement that is a body",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ ...v, replacement_digest: "abcd" })) }),
    status: "fail",
    codes: ["V4.malformed-replacement"],
    says: [/a "stale" verdict in reply to verify-mutated has replacement_digest "abcd" \| sha256:<64 lowercase hex> \| "abcd"/],
  },
  {
    name: "a replacement digest in uppercase hex",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ ...v, replacement_digest: String(v.replacement_digest).replace("sha256:", "SHA256:") })) }),
    status: "fail",
    codes: ["V4.malformed-replacement"],
    says: [/has replacement_digest "SHA256:[0-9a-f]{64}"/],
  },
  {
    name: "stale verdicts without replacement digests (it MAY carry one)",
    build: verify({
      "verify-mutated": (vs) => vs.map((v) => ({ frame: v.frame, status: "stale" })),
      "verify-digestless": (vs) => vs.map((v) => ({ frame: v.frame, status: "stale" })),
    }),
    status: "pass",
    says: [/no verdict carries a frame body/],
  },
  { name: "verify not declared", build: notDeclared, status: "skip", says: [/capabilities\.verify is not declared/] },
  { name: "no served frame has a content_digest", build: undigested, status: "skip", says: [/there was no identity to verify/] },
  { name: "identities and statuses only", build: verify(), status: "pass", says: [/no verdict carries a frame body/] },
  {
    name: "a verdict carrying the content",
    build: verify({ "verify-served": (vs) => vs.map((v) => ({ ...v, content: "abcd" })) }),
    status: "fail",
    codes: ["V4.body-carried"],
    says: [/a verdict in reply to verify-served carries content: a body travelled \| frame identity, status, and at most a replacement_digest \| \{"frame":/],
  },
  {
    name: "a stale verdict carrying the current frame",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ ...v, frame: { ...(v.frame as Obj), content: "abcd" }, body: "abcd" })) }),
    status: "fail",
    says: [/a verdict in reply to verify-mutated carries body, frame\.content: a body travelled/],
  },
  {
    // Its source moved under the run: the same query again serves frm_1 with yet another digest, so no one digest is current.
    name: "a stale verdict whose replacement is neither digest served, for a frame whose source moved",
    build: verify(
      { "verify-mutated": (vs) => vs.map((v, i) => (i === 0 ? { ...v, replacement_digest: `sha256:${"c".repeat(64)}` } : v)) },
      { again: [frame({ id: "frm_1", content: "abcd, edited", content_digest: `sha256:${"d".repeat(64)}` }), SERVED[1]!] },
    ),
    status: "pass",
  },
  {
    name: "a stale verdict echoing the digest the host presented",
    build: verify({ "verify-mutated": (vs) => vs.map((v) => ({ ...v, replacement_digest: (v.frame as Obj).content_digest })) }),
    status: "warn",
    codes: ["V4.not-current"],
    strict: "warn",
    says: [
      /the stale verdict for frame "frm_1" in reply to verify-mutated carries replacement_digest sha256:[0-9a-f]{64} \(the digest the host presented\), but the provider served that frame with sha256:[0-9a-f]{64} moments ago/,
    ],
  },
  {
    name: "no verdict at all",
    build: verify({
      "verify-served": () => [],
      "verify-mutated": () => [],
      "verify-never-served": () => [],
      "verify-case-flipped": () => [],
      "verify-digestless": () => [],
    }),
    status: "skip",
    says: [/no verdict was received/],
  },
]);
