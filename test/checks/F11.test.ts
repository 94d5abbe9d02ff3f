import F11 from "../../checks/F11.ts";
import { show } from "../../checks/kit/show.ts";
import { identityOf } from "../../src/attest/commit.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { runCases } from "../helpers/cases.ts";
import { answer, attestation, commit, DROPPED, entry, has, PROVIDER, rootOnly, unsigned, type Obj } from "../helpers/attestation.ts";

/** How F11 names an entry: its identity as evidence quotes it (cut at 120 characters). */
const named = (i: number, id: Obj): string => `frame_attestations[${i}] (${show(id, 120)})`;

runCases(F11, [
  {
    name: "every entry names a carried frame in full",
    build: answer(),
    status: "pass",
    says: [/every frame_attestations entry names in full a frame its result carries/],
  },
  { name: "no attestations at all", build: unsigned, status: "skip" },
  { name: "a root and no entries", build: rootOnly, status: "skip", says: [/no answer carries frame_attestations entries/] },
  {
    name: "an entry without the content_digest",
    build: answer((r) => delete entry(r, 0).frame.content_digest),
    status: "fail",
    codes: ["F11.incomplete-identity"],
    says: [
      has(
        `${named(0, { provider_id: PROVIDER, frame_id: "frm_c" })} does not name the full identity: content_digest missing | provider_id, frame_id and content_digest`,
      ),
    ],
  },
  {
    name: "an entry without the provider_id",
    build: answer((r) => delete entry(r, 1).frame.provider_id),
    status: "fail",
    says: [has(`${named(1, { frame_id: "frm_a", content_digest: digestOfText("alpha") })} does not name the full identity: provider_id missing`)],
  },
  {
    name: "an entry implied by position (no identity at all)",
    build: answer((r) => (entry(r, 2).frame = {})),
    status: "fail",
    says: [has(`${named(2, {})} does not name the full identity: provider_id, frame_id missing`)],
  },
  {
    name: "an entry for a frame truncated away",
    build: answer((r) => r.frame_attestations!.push({ frame: { ...identityOf(PROVIDER, DROPPED) }, attestation: attestation(commit(DROPPED)) })),
    status: "fail",
    codes: ["F11.absent-frame"],
    says: [
      has(`${named(3, { ...identityOf(PROVIDER, DROPPED) })} names a frame this result does not carry | the identity of a frame in result.frames`),
      /…\(134 chars\)\) names a frame/,
    ],
  },
  {
    name: "an entry naming a stale content_digest",
    build: answer((r) => (entry(r, 2).frame.content_digest = digestOfText("beta, before the edit"))),
    status: "fail",
    says: [
      has(
        `${named(2, { provider_id: PROVIDER, frame_id: "frm_b", content_digest: digestOfText("beta, before the edit") })} names a frame this result does not carry`,
      ),
    ],
  },
  {
    name: "an entry naming another provider",
    build: answer((r) => (entry(r, 0).frame.provider_id = "someone-else")),
    status: "fail",
    says: [/frame_attestations\[0\] \(\{"provider_id":"someone-else".*\) names a frame this result does not carry/],
  },
]);
