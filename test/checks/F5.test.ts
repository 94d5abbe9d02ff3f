import t from "tap";
import F5 from "../../checks/F5.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { BUDGET_SQUEEZE, PROVENANCE_FILES, SAMPLE_QUERY } from "../../src/protocol/probes.ts";
import type { FileUnread } from "../../src/transcript/types.ts";
import { runCases } from "../helpers/cases.ts";
import { emptySqueeze, frame, frames, query, served, tx, type TranscriptBuilder } from "../helpers/transcript.ts";
import { fromNdjson, toNdjson } from "../../src/transcript/file.ts";

const ROOT = "/srv/repo";
const uri = (p: string): string => `file://${ROOT}/${p}`;
/** Three lines, the second ending CRLF: 8 + 10 + 11 = 29 bytes. */
const SRC = "# Notes\nline two\r\nline three\n";
const L2 = "line two\r\n";
const L2_3 = "line two\r\nline three\n";

const link = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: "file",
  uri: uri("notes.md"),
  digest: digestOfText(SRC),
  method: "file-read",
  ...over,
});
const read = (p = "notes.md", text = SRC) => ({ uri: uri(p), path: `${ROOT}/${p}`, data: Buffer.from(text).toString("base64") });
const unread = (p: string, kind: FileUnread, error: string) => ({ uri: uri(p), path: `${ROOT}/${p}`, unread: kind, error });

type FileEvent = { uri: string; path?: string; data?: string; error?: string; unread?: FileUnread };

/**
 * served() puts the frames at line 9 (sample-query); provenance-files then
 * records one event per file from line 10, and its closing note.
 */
function withFiles(links: object[], files: FileEvent[] = [read()], b?: TranscriptBuilder): () => TranscriptBuilder {
  return () => {
    const out = (b ?? served([frame({ provenance: links })])).probe(PROVENANCE_FILES.name);
    for (const f of files) out.file(f);
    return out.note("files", {
      reason: `${files.length} file provenance URIs, ${files.filter((f) => f.data !== undefined).length} read under the trusted roots`,
    });
  };
}

const where = (extra = ""): RegExp =>
  new RegExp(`frame "frm_1" \\(result\\.frames\\[0\\], line 9\\) provenance\\[0\\] \\("file:///srv/repo/notes\\.md"${extra}\\)`);

runCases(F5, [
  { name: "a whole-file digest of the bytes on disk", build: withFiles([link()]), status: "pass", says: [/file provenance digests match the bytes they name/] },
  { name: "a ranged digest over CRLF bytes, unnormalised", build: withFiles([link({ range: "L2-3", digest: digestOfText(L2_3) })]), status: "pass" },
  { name: "an end past the last line clamps", build: withFiles([link({ range: "L3-99", digest: digestOfText("line three\n") })]), status: "pass" },
  {
    // No spec text gives a range grammar: a range read as its lines without the last terminator warns, never fails.
    name: "a ranged digest of the lines without the last terminator",
    build: withFiles([link({ range: "L2-3", digest: digestOfText(L2_3.replace(/(\r\n|\n)$/, "")) })]),
    status: "warn",
    codes: ["F5.range-terminator"],
    says: [/the digest of range "L2-3"'s \d+ bytes without the last line's terminator; the published range vectors keep it/],
  },
  {
    // Lines split at LF alone keep their CR: the last line's LF dropped, its CR kept.
    name: "a ranged digest of a CRLF line split at LF, its LF dropped",
    build: withFiles([link({ range: "L2", digest: digestOfText("line two\r") })]),
    status: "warn",
    codes: ["F5.range-terminator"],
  },
  {
    // A transcript recorded before the earlier reading was taken replays as it did: the mismatch warns.
    name: "a digest over the wrong bytes, with no reading before the re-query",
    build: withFiles([link({ range: "L2", digest: digestOfText("line two\n") })]),
    status: "warn",
    codes: ["F5.digest-unsettled"],
    strict: "warn",
    says: [
      new RegExp(
        `${where(' "L2"').source} declares digest ${digestOfText("line two\n")}, but the 10 bytes it names, as read once the sessions ended, hash to ${digestOfText(L2)} \\(the declared digest is of these bytes with CRLF line endings translated to LF: digest the exact bytes, with no normalization\\); the bytes could have changed under the run: the file was not read before the same query was sent again`,
      ),
      new RegExp(`\\| ${digestOfText(L2)} \\| ${digestOfText("line two\n")}`),
    ],
    never: [/held still/],
  },
  {
    name: "a digest taken without the trailing newline: the hint names it",
    build: withFiles([link({ digest: digestOfText(SRC.slice(0, -1)) })]),
    status: "warn",
    codes: ["F5.digest-unsettled"],
    strict: "warn",
    says: [/hash to sha256:[0-9a-f]{64} \(the declared digest is of these bytes with the trailing newline dropped/],
  },
  {
    name: "a ranged link carrying the whole file's digest",
    build: withFiles([link({ range: "L2-3" })]),
    status: "warn",
    strict: "warn",
    says: [new RegExp(`declares digest ${digestOfText(SRC)}, but the 21 bytes it names, as read once the sessions ended, hash to ${digestOfText(L2_3)}`)],
  },
  {
    // No spec text gives a range grammar: a range past the end warns (docs/readings.md).
    name: "a range past the end of the file",
    build: withFiles([link({ range: "L9-12" })]),
    status: "warn",
    strict: "warn",
    codes: ["F5.range-unaddressable"],
    says: [
      new RegExp(
        `${where(' "L9-12"').source}: range "L9-12" addresses nothing a verifier can digest \\(start_past_end\\) \\| L<n> or L<a>-<b> within the file \\| "L9-12"`,
      ),
    ],
  },
  {
    name: "an inverted range",
    build: withFiles([link({ range: "L3-2" })]),
    status: "warn",
    strict: "warn",
    says: [/range "L3-2" addresses nothing a verifier can digest \(inverted\)/],
  },
  {
    name: "a digest in uppercase hex",
    build: withFiles([link({ digest: digestOfText(SRC).toUpperCase().replace("SHA256", "sha256") })]),
    status: "fail",
    codes: ["F5.malformed-digest"],
    says: [new RegExp(`${where().source} digest "sha256:B764CC34[0-9A-F]+" is not sha256:<64 lowercase hex>`)],
  },
  {
    name: "a file link with no digest",
    build: withFiles([link({ digest: undefined })]),
    status: "fail",
    says: [/digest absent is not sha256:<64 lowercase hex>/],
  },
  {
    name: "a file outside the trusted roots: well-formed, not re-read",
    build: withFiles(
      [link({ uri: "file:///etc/hosts" })],
      [{ uri: "file:///etc/hosts", path: "/etc/hosts", unread: "outside-roots" as const, error: `outside the trusted roots (${ROOT})` }],
    ),
    status: "info",
    says: [
      /file provenance digests are well-formed, but the bytes were not checked: outside the trusted roots \(\/srv\/repo\); to check them, pass --trust-root DIR/,
    ],
  },
  {
    name: "a file:// URI that is not local",
    build: withFiles(
      [link({ uri: "file://build-host/srv/repo/notes.md" })],
      [
        {
          uri: "file://build-host/srv/repo/notes.md",
          unread: "not-local" as const,
          error: 'not a local file URI: File URL host must be "localhost" or empty on linux',
        },
      ],
    ),
    status: "info",
    says: [/the bytes were not checked: not a local file URI/],
  },
  {
    name: "provenance that is not a file: URI",
    build: withFiles([link({ uri: "https://example.com/notes.md" })], []),
    status: "info",
    says: [/the bytes were not checked: not a file: URI/],
  },
  {
    name: "a file too large to re-read",
    build: withFiles([link()], [unread("notes.md", "too-large", "larger than 4194304 bytes: not read")]),
    status: "info",
    says: [/not checked: larger than 4194304 bytes: not read; re-reading is capped per file and per run/],
  },
  {
    // A provider not on this machine: its file: URIs name its files, and ours under the same name are not the bytes it digested.
    name: "a remote provider's file: the byte check is not made, and says why",
    build: withFiles(
      [link()],
      [
        {
          uri: uri("notes.md"),
          unread: "remote-provider",
          error: "the provider is not on this machine (cg.example.org), so the file it names is not ours to read",
        },
      ],
    ),
    status: "info",
    says: [/the bytes were not checked: the provider is not on this machine \(cg\.example\.org\).*; a remote provider/],
  },
  {
    name: "a missing file under a trusted root",
    build: withFiles([link({ uri: uri("gone.md") })], [unread("gone.md", "missing", "no such file")]),
    status: "warn",
    codes: ["F5.file-gone"],
    strict: "warn",
    says: [
      /provenance\[0\] \("file:\/\/\/srv\/repo\/gone\.md"\) names a file that cannot be read now: no such file \(it may have been removed since it was served\) \| the file the digest was taken over \| no such file/,
    ],
  },
  {
    name: "a directory",
    build: withFiles([link({ uri: uri("docs") })], [unread("docs", "not-regular", "not a regular file")]),
    status: "warn",
    strict: "warn",
    says: [/cannot be read now: not a regular file/],
  },
  {
    name: "only derivation provenance",
    build: withFiles([{ type: "derivation", method: "summarise", by: "canned" }], []),
    status: "skip",
    says: [/no served frame carries file provenance/],
  },
  {
    name: "a query left unanswered",
    build: withFiles(
      [link()],
      [read()],
      emptySqueeze().probe(SAMPLE_QUERY.name).handshake().send(SAMPLE_QUERY.steps.sample, query("s1")).note("timeout", { waitedMs: 800 }),
    ),
    status: "unobserved",
    untestable: true,
    says: [/query sent at line 8 \(probe sample-query, step sample\) got no frames or error reply: no reply within 800 ms/],
  },
]);

runCases(F5, [
  {
    name: "a range outside the grammar",
    build: withFiles([link({ range: "B10-20" })]),
    status: "info",
    says: [/range "B10-20"/],
  },
]);

t.test("a digest of normalized bytes names the normalization as a param", async (t) => {
  const r = withFiles([link({ digest: digestOfText(SRC.slice(0, -1)) })])().scoreWith(F5);
  const e = r.evidence.find((x) => x.code === "F5.digest-unsettled");
  t.equal(e?.params?.normalized, "trailing-newline-dropped");
  t.equal(e?.params?.bytes, Buffer.byteLength(SRC));
  t.equal(e?.params?.unsettled, "no-earlier-reading");
});

/**
 * The run as it is recorded now: sample-query's answer, the files it names
 * digested, budget-squeeze sending the same query again, then
 * provenance-files reading them once the sessions end. Lines: sample's
 * frames at 5, the earlier reading at 6, the re-query's frames at 8, the
 * later reading at 9.
 */
function requeried(o: { links: object[]; again?: object[]; before?: string | null; after?: string; reorder?: boolean }): () => TranscriptBuilder {
  return () => {
    const sample = (b: TranscriptBuilder): TranscriptBuilder => {
      b.probe(SAMPLE_QUERY.name, "shared")
        .handshake()
        .send(SAMPLE_QUERY.steps.sample, query("s1"))
        .recv(frames("s1", [frame({ provenance: o.links })]));
      if (o.before !== null)
        b.step(SAMPLE_QUERY.steps.filesBefore).file({ uri: uri("notes.md"), path: `${ROOT}/notes.md`, sha256: digestOfText(o.before ?? SRC) });
      return b;
    };
    const again = (b: TranscriptBuilder): TranscriptBuilder =>
      b
        .probe(BUDGET_SQUEEZE.name, "shared")
        .send(BUDGET_SQUEEZE.steps.generous, query("g1"))
        .recv(frames("g1", [frame({ provenance: o.again ?? o.links })]));
    const b = o.reorder ? sample(again(tx().probe(BUDGET_SQUEEZE.name, "shared").handshake())) : again(sample(tx()));
    return withFiles(o.links, [read("notes.md", o.after ?? SRC)], b)();
  };
}

const NORMALIZED = link({ range: "L2", digest: digestOfText("line two\n") });

runCases(F5, [
  { name: "an honest digest, the file held still: pass", build: requeried({ links: [link()] }), status: "pass", never: [/could have changed/] },
  {
    name: "a file that held still under a re-query serving the same digest: a digest of other bytes fails",
    build: requeried({ links: [NORMALIZED] }),
    status: "fail",
    codes: ["F5.digest-of-other-bytes"],
    says: [
      new RegExp(
        `frame "frm_1" \\(result\\.frames\\[0\\], line 5\\) provenance\\[0\\] \\("file:///srv/repo/notes\\.md" "L2"\\) declares digest ${digestOfText("line two\n")}, but the 10 bytes it names hash to ${digestOfText(L2)} \\(the declared digest is of these bytes with CRLF line endings translated to LF: digest the exact bytes, with no normalization\\); the file held still under the run \\(read the same before and after the same query was sent again, which served the same digest\\)`,
      ),
    ],
    never: [/could have changed/],
  },
  {
    name: "a file that changed between the readings: warns, as bytes that could have changed",
    build: requeried({ links: [NORMALIZED], before: "# Notes\nline two\nline three\n" }),
    status: "warn",
    strict: "warn",
    codes: ["F5.digest-unsettled"],
    says: [
      /the bytes could have changed under the run: the file read before the same query was sent again \(budget-squeeze, step generous\) differs from the file read after it/,
    ],
    never: [/held still/],
  },
  {
    name: "a re-query that served another digest: warns",
    build: requeried({ links: [NORMALIZED], again: [link({ range: "L2", digest: digestOfText(L2) })] }),
    status: "warn",
    strict: "warn",
    codes: ["F5.digest-unsettled"],
    says: [/could have changed under the run: the same query sent again \(budget-squeeze, step generous\) served this link of this frame with another digest/],
  },
  {
    name: "a re-query that did not serve the link: warns",
    build: requeried({ links: [NORMALIZED], again: [] }),
    status: "warn",
    strict: "warn",
    codes: ["F5.digest-unsettled"],
    says: [/could have changed under the run: this link of this frame was not served both to the sample query and to the same query sent again/],
  },
  {
    name: "a reading taken after the re-query shows nothing held still under it: warns",
    build: requeried({ links: [NORMALIZED], reorder: true }),
    status: "warn",
    codes: ["F5.digest-unsettled"],
    says: [/not served both to the sample query and to the same query sent again \(budget-squeeze, step generous\) after the file was read/],
  },
  {
    name: "no earlier reading of the file (outside the roots then): warns",
    build: requeried({ links: [NORMALIZED], before: null }),
    status: "warn",
    codes: ["F5.digest-unsettled"],
    says: [/the file was not read before the same query was sent again/],
  },
  {
    name: "an uppercase digest still fails as the grammar, whatever the readings",
    build: requeried({ links: [link({ digest: digestOfText(SRC).toUpperCase().replace("SHA256", "sha256") })] }),
    status: "fail",
    codes: ["F5.malformed-digest"],
  },
]);

t.test("the failing finding names the readings and the re-query that show the file held still", async (t) => {
  const r = requeried({ links: [NORMALIZED] })().scoreWith(F5);
  const e = r.evidence.find((x) => x.code === "F5.digest-of-other-bytes");
  t.same(e?.lines, [5, 6, 8, 9]);
  t.equal(e?.level, undefined, "at F5's own MUST");
});

t.test("a transcript with the earlier reading replays; one without it replays as it did", async (t) => {
  for (const [name, build, status] of [
    ["with", requeried({ links: [NORMALIZED] }), "fail"],
    ["without", requeried({ links: [NORMALIZED], before: null }), "warn"],
  ] as const) {
    const back = fromNdjson(toNdjson(build().build()));
    const { score } = await import("../../src/engine/score.ts");
    t.equal(score(back, [F5])[0]!.status, status, name);
  }
  t.throws(
    () =>
      fromNdjson(
        toNdjson({
          header: requeried({ links: [link()] })().build().header,
          events: [{ n: 2, probe: "sample-query", session: "shared", t: 0, step: "files-before-requery", dir: "file", uri: "file:///a", sha256: 7 }],
        }),
      ),
    /sha256 must be string/,
  );
});
