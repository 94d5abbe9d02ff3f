import { defineCheck, type Evidence } from "./kit/check.ts";
import { digestOf, isDigest } from "../src/math/digest.ts";
import { sliceRange } from "../src/math/range.ts";

import { exchanges, frameName, servedIn, unanswered } from "./kit/answers.ts";
import type { FileUnread, TranscriptEvent } from "../src/transcript/types.ts";
import { isObj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, PROVENANCE_FILES, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/** A file that is not there, or is not a file, at retrieval time cannot have been digested: that fails; any other reason means we did not look. */
const UNREAD_THAT_FAILS: ReadonlySet<FileUnread> = new Set(["missing", "not-regular"]);

/** What would check bytes that were not read, where something would. */
function notReadHint(unread: string | undefined): string {
  if (unread === "outside-roots") return "; to check them, pass --trust-root DIR with the directory that holds them";
  if (unread === "too-large") return "; re-reading is capped per file and per run, and no flag raises the caps";
  if (unread === "remote-provider") return "; a remote provider's file: URIs name its own files, which cannot be read from here";
  return "";
}

/**
 * When the declared digest is of the same bytes normalized in one of the ways
 * the spec forbids, say which: that is the fix. (A hint only: the verdict is
 * the mismatch.)
 */
const HINT_MAX_BYTES = 256 * 1024;
const hints = new Map<string, string>();
function normalizedHint(bytes: Uint8Array, actual: string, declared: string): string {
  // Bounded: four rewrites and digests of a big file for every frame citing it would cost more than the check.
  if (bytes.length > HINT_MAX_BYTES) return "";
  const key = `${actual} ${declared}`;
  let hint = hints.get(key);
  if (hint === undefined) {
    hint = computeHint(bytes, declared);
    if (hints.size >= 1000) hints.clear();
    hints.set(key, hint);
  }
  return hint;
}

function computeHint(bytes: Uint8Array, declared: string): string {
  const text = Buffer.from(bytes).toString("latin1");
  const variants: Array<[string, string]> = [
    ["with CRLF line endings translated to LF", text.replace(/\r\n/g, "\n")],
    ["with LF line endings translated to CRLF", text.replace(/\r?\n/g, "\r\n")],
    ["with the trailing newline dropped", text.endsWith("\r\n") ? text.slice(0, -2) : text.endsWith("\n") ? text.slice(0, -1) : text],
    ["with a trailing newline added", `${text}\n`],
  ];
  for (const [how, v] of variants)
    if (v !== text && digestOf(Buffer.from(v, "latin1")) === declared)
      return ` (the declared digest is of these bytes ${how}: digest the exact bytes, with no normalization)`;
  return "";
}

/**
 * @anchor F5
 * Stimulus: every file provenance link of every frame served to probes
 * sample-query and budget-squeeze; the files they name, re-read by
 * provenance-files when under a trusted root. "Digested bytes: the exact
 * UTF-8 source bytes addressed by uri + range at retrieval time, with no
 * normalization."
 * Reading: F5's MUST is the grammar ("MUST carry a digest matching
 * sha256:<64 lowercase hex>"); what the digest is of is stated with no
 * keyword, and bytes re-read now may differ from those at retrieval time
 * (the file was edited since), so a digest of other bytes, or of a file no
 * longer there, warns (level NONE) and never fails. A range the verifier
 * cannot address fails: the link names no bytes at all.
 */
export default defineCheck({
  id: "F5",
  title: "File provenance carries a well-formed digest of the bytes it names",
  level: "MUST",
  requirement:
    "Provenance of kind file MUST carry a digest matching sha256:<64 lowercase hex>. [Digested bytes: the exact UTF-8 source bytes addressed by uri + range at retrieval time, with no normalization (no line-ending translation, no trailing-newline adjustment).]",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE, PROVENANCE_FILES],
  score({ probe }) {
    const views = [probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)];
    const xs = exchanges(views);
    const files = new Map<string, TranscriptEvent>(
      probe(PROVENANCE_FILES)
        .events.filter((e) => e.dir === "file")
        .map((e) => [e.uri!, e]),
    );
    const out: Evidence[] = unanswered(xs, views, { judged: servedIn(views).length > 0 });
    for (const f of servedIn(views)) {
      const links = Array.isArray(f.frame.provenance) ? f.frame.provenance.filter(isObj) : [];
      for (const [i, link] of links.entries()) {
        if (link.type !== "file") continue;
        const where = `${frameName(f)} provenance[${i}] (${show(link.uri, 80)}${link.range !== undefined ? ` ${show(link.range)}` : ""})`;
        if (!isDigest(link.digest)) {
          out.push({
            ok: false,
            message: `${where} digest ${show(link.digest)} is not sha256:<64 lowercase hex>`,
            expected: "sha256:<64 lowercase hex>",
            actual: show(link.digest),
            lines: [f.line],
          });
          continue;
        }
        const file = typeof link.uri === "string" ? files.get(link.uri) : undefined;
        if (!file || file.data === undefined) {
          const why = file?.error ?? "not a file: URI";
          out.push(
            file?.unread !== undefined && UNREAD_THAT_FAILS.has(file.unread)
              ? {
                  ok: false,
                  level: "NONE",
                  message: `${where} names a file that cannot be read now: ${why} (it may have been removed since it was served)`,
                  expected: "the file the digest was taken over",
                  actual: why,
                  lines: [f.line, ...(file ? [file.n] : [])],
                }
              : {
                  ok: false,
                  level: "MAY",
                  message: `file provenance digests are well-formed, but the bytes were not checked: ${why}${notReadHint(file?.unread)}`,
                  lines: [f.line, ...(file ? [file.n] : [])],
                },
          );
          continue;
        }
        const range = link.range === undefined || link.range === null ? undefined : String(link.range);
        const sliced = sliceRange(Buffer.from(file.data, "base64"), range);
        if (!sliced.ok && sliced.reason === "unrecognised") {
          // The published range vectors: "Not a line-range in the grammar: reserved, never a whole-resource fallback."
          out.push({
            ok: false,
            level: "MAY",
            message: `${where}: range ${show(range)} is not in the L<n> / L<a>-<b> grammar (reserved), so its bytes cannot be checked`,
            lines: [f.line, file.n],
          });
          continue;
        }
        if (!sliced.ok) {
          out.push({
            ok: false,
            message: `${where}: range ${show(range)} addresses nothing a verifier can digest (${sliced.reason})`,
            expected: "L<n> or L<a>-<b> within the file",
            actual: show(range),
            lines: [f.line, file.n],
          });
          continue;
        }
        const actual = digestOf(sliced.bytes);
        out.push(
          actual === link.digest
            ? { ok: true, message: "file provenance digests match the bytes they name", lines: [f.line, file.n] }
            : {
                ok: false,
                level: "NONE",
                message: `${where} declares digest ${link.digest}, but the ${sliced.bytes.length} bytes it names hash to ${actual}${normalizedHint(sliced.bytes, actual, String(link.digest)) || " (unless the file changed since it was served)"}`,
                expected: actual,
                actual: String(link.digest),
                lines: [f.line, file.n],
              },
        );
      }
    }
    if (out.length === 0) return { skip: "no served frame carries file provenance" };
    return out;
  },
});
