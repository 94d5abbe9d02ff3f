import t from "tap";
import F5 from "../../checks/F5.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { PROVENANCE_FILES, SAMPLE_QUERY } from "../../src/protocol/probes.ts";
import type { FileUnread } from "../../src/transcript/types.ts";
import { runCases } from "../helpers/cases.ts";
import { emptySqueeze, frame, query, served, type TranscriptBuilder } from "../helpers/transcript.ts";

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
    name: "a digest over the wrong bytes (line endings normalised)",
    build: withFiles([link({ range: "L2", digest: digestOfText("line two\n") })]),
    status: "warn",
    codes: ["F5.digest-of-other-bytes"],
    strict: "warn",
    says: [
      new RegExp(
        `${where(' "L2"').source} declares digest ${digestOfText("line two\n")}, but the 10 bytes it names hash to ${digestOfText(L2)} \\(the declared digest is of these bytes with CRLF line endings translated to LF: digest the exact bytes`,
      ),
      new RegExp(`\\| ${digestOfText(L2)} \\| ${digestOfText("line two\n")}`),
    ],
  },
  {
    name: "a digest taken without the trailing newline: the hint names it",
    build: withFiles([link({ digest: digestOfText(SRC.slice(0, -1)) })]),
    status: "warn",
    codes: ["F5.digest-of-other-bytes"],
    strict: "warn",
    says: [/hash to sha256:[0-9a-f]{64} \(the declared digest is of these bytes with the trailing newline dropped/],
  },
  {
    name: "a ranged link carrying the whole file's digest",
    build: withFiles([link({ range: "L2-3" })]),
    status: "warn",
    strict: "warn",
    says: [new RegExp(`declares digest ${digestOfText(SRC)}, but the 21 bytes it names hash to ${digestOfText(L2_3)}`)],
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
  const e = r.evidence.find((x) => x.code === "F5.digest-of-other-bytes");
  t.equal(e?.params?.normalized, "trailing-newline-dropped");
  t.equal(e?.params?.bytes, Buffer.byteLength(SRC));
});
