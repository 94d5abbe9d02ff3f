import t from "tap";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import F12 from "../../checks/F12.ts";
import { MODES } from "../../misbehave/index.ts";
import { sha256 } from "../../src/math/sha256.ts";
import type { CheckResult } from "../../src/verdict/status.ts";
import { merkleLeaf, merkleNode, merkleRoot, toDigest } from "../../src/math/attest.ts";
import { type Case, runCases } from "../helpers/cases.ts";
import { answer, attestation, canonical, commit, DROPPED, FRAMES, has, KEYED_ACK, ROOT, signed } from "../helpers/attestation.ts";

/** RFC 6962 done wrong: an odd level duplicates its last node. */
function duplicateLastLeafRoot(leaves: Uint8Array[]): Uint8Array {
  let level = leaves.map(merkleLeaf);
  while (level.length > 1) {
    if (level.length % 2 === 1) level = [...level, level[level.length - 1]!];
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(merkleNode(level[i]!, level[i + 1]!));
    level = next;
  }
  return level[0]!;
}

const CANONICAL = canonical(FRAMES).map(commit);
const wrongRoot = (root: Uint8Array, diagnosis: string): RegExp =>
  has(`step sample: result_attestation signs "${toDigest(root)}", not the root of the frames carried (${ROOT}): ${diagnosis} | ${ROOT} | "${toDigest(root)}"`);

/** An empty answer signed over SHA256 of no bytes: a wrong root with no frames to order, so no diagnosis. */
const EMPTY_WRONG = answer((r) => (r.result_attestation = attestation(sha256(new Uint8Array()))), KEYED_ACK, signed([]));

const CASES: Case[] = [
  {
    name: "the root of exactly the frames returned, canonical order",
    build: answer(),
    status: "pass",
    says: [/every result_attestation signs the Merkle root of exactly the frames returned, in canonical order/],
  },
  {
    name: "the cheapest honest shape: one root, proofs, no per-frame signature",
    build: answer((r) => r.frame_attestations!.forEach((e) => delete e.attestation)),
    status: "pass",
  },
  { name: "an empty answer signs the empty-tree root", build: answer(() => {}, KEYED_ACK, signed([])), status: "pass" },
  {
    name: "frame attestations but no root",
    build: answer((r) => delete r.result_attestation),
    status: "skip",
    says: [/attached no attestation to any answer \(attestations are optional: §6\.5\), or no result_attestation/],
  },
  {
    name: "the root over arrival order",
    build: answer((r) => (r.result_attestation = attestation(merkleRoot(FRAMES.map(commit))))),
    status: "fail",
    codes: ["F12.wrong-root"],
    says: [wrongRoot(merkleRoot(FRAMES.map(commit)), "it is the root over the same frames in arrival order, not canonical order")],
  },
  {
    name: "the root with the duplicate-last-leaf shortcut",
    build: answer((r) => (r.result_attestation = attestation(duplicateLastLeafRoot(CANONICAL)))),
    status: "fail",
    says: [wrongRoot(duplicateLastLeafRoot(CANONICAL), "it is the root with the duplicate-last-leaf shortcut, not RFC 6962's split")],
  },
  {
    name: "the root over the candidate set before truncation",
    build: answer(() => {}, KEYED_ACK, signed(FRAMES, [...FRAMES, DROPPED])),
    status: "fail",
    says: [
      wrongRoot(
        merkleRoot(canonical([...FRAMES, DROPPED]).map(commit)),
        "it matches no ordering or tree shape of the frames carried: a root over a different set (a truncated-away candidate set?)",
      ),
    ],
  },
  {
    name: "an empty answer signing SHA256 of nothing: no order to diagnose, and the message ends with the root",
    build: EMPTY_WRONG,
    status: "fail",
    codes: ["F12.wrong-root"],
    says: [/step sample: result_attestation signs "sha256:e3b0c442[0-9a-f]+", not the root of the frames carried \(sha256:[0-9a-f]{64}\) \|/],
  },
];
runCases(F12, CASES);

/** Every message, expected and actual of these findings that prints a missing value as "undefined". */
const undefinedIn = (es: readonly { message: string; expected?: string; actual?: string }[]): string[] =>
  es.flatMap((e) => [e.message, e.expected, e.actual].filter((w): w is string => w !== undefined && /\bundefined\b/.test(w)));
const findingsOf = (rs: CheckResult[]) => rs.flatMap((r) => r.evidence);

t.test("no F12 finding prints a missing value as undefined", async (t) => {
  const empty = EMPTY_WRONG().scoreWith(F12);
  t.equal(
    empty.evidence.find((e) => e.code === "F12.wrong-root")?.params?.diagnosis,
    null,
    "the case where the value is missing: a message interpolating it would print undefined",
  );
  t.same(undefinedIn(empty.evidence), [], "that case's message");
  t.same(undefinedIn([{ message: `signs x, not the root of the frames carried (y): ${undefined}` }]).length, 1, "the guard sees the old message");
  t.same(
    CASES.flatMap((c) => undefinedIn(c.build().scoreWith(F12).evidence)),
    [],
    "every test transcript",
  );
  const { runSuite } = await import("../../src/engine/run.ts");
  const { inProcessFixture } = await import("../../misbehave/apply.ts");
  const { fixtureCommand } = await import("../../src/engine/fixture-process.ts");
  const modes = MODES.filter((m) => m.expectFail.includes("F12") || m.expectWarn?.includes("F12"));
  t.ok(
    modes.some((m) => m.name === "F12-empty-root"),
    "the mode whose root has no order to diagnose is among them",
  );
  for (const m of modes) {
    const root = mkdtempSync(join(tmpdir(), "cgp-f12-root-"));
    const { report } = await runSuite(
      { kind: "stdio", command: fixtureCommand(m.name, root), inProcess: inProcessFixture(m.name, root, true) },
      { checks: [F12], timeoutMs: 20_000, trustRoots: [root] },
    );
    t.equal(report.results[0]?.status, "fail", `${m.name} fails F12`);
    t.same(undefinedIn(findingsOf(report.results)), [], m.name);
  }
});
