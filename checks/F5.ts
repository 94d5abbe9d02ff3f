import { defineCheck, type Evidence } from "./kit/check.ts";
import { digestOf, isDigest } from "../src/math/digest.ts";
import { sliceRange } from "../src/math/range.ts";

import { exchanges, type Exchange, frameAt, framed, framesOf, servedIn, unanswered, type FrameAt } from "./kit/answers.ts";
import { findings, type Param } from "./kit/findings.ts";
import type { FileUnread, TranscriptEvent } from "../src/transcript/types.ts";
import type { ProbeView } from "../src/transcript/view.ts";
import { isObj, type Obj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, PROVENANCE_FILES, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/** A file that is not there, or is not a file, at retrieval time cannot have been digested: that fails; any other reason means we did not look. */
const UNREAD_THAT_FAILS: ReadonlySet<FileUnread> = new Set(["missing", "not-regular"]);

/** What would check bytes that were not read, where something would. */
function notReadHint(unread: string | null): string {
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
/** A normalization the spec forbids, whose bytes the declared digest is of. */
type Normalized = "crlf-to-lf" | "lf-to-crlf" | "trailing-newline-dropped" | "trailing-newline-added";
const NORMALIZED: Record<Normalized, string> = {
  "crlf-to-lf": "with CRLF line endings translated to LF",
  "lf-to-crlf": "with LF line endings translated to CRLF",
  "trailing-newline-dropped": "with the trailing newline dropped",
  "trailing-newline-added": "with a trailing newline added",
};
const hints = new Map<string, Normalized | null>();
function normalizedHint(bytes: Uint8Array, actual: string, declared: string): Normalized | null {
  // Bounded: four rewrites and digests of a big file for every frame citing it would cost more than the check.
  if (bytes.length > HINT_MAX_BYTES) return null;
  const key = `${actual} ${declared}`;
  let hint = hints.get(key);
  if (hint === undefined) {
    hint = computeHint(bytes, declared);
    if (hints.size >= 1000) hints.clear();
    hints.set(key, hint);
  }
  return hint;
}

/** Whether a digest is of these bytes without their last line terminator: CRLF, or LF alone (lines split at LF). */
function lastTerminatorDropped(bytes: Uint8Array, declared: string): boolean {
  const n = bytes.length;
  if (n === 0 || bytes[n - 1] !== 0x0a) return false;
  return digestOf(bytes.subarray(0, n - 1)) === declared || (n >= 2 && bytes[n - 2] === 0x0d && digestOf(bytes.subarray(0, n - 2)) === declared);
}

function computeHint(bytes: Uint8Array, declared: string): Normalized | null {
  const text = Buffer.from(bytes).toString("latin1");
  const variants: Array<[Normalized, string]> = [
    ["crlf-to-lf", text.replace(/\r\n/g, "\n")],
    ["lf-to-crlf", text.replace(/\r?\n/g, "\r\n")],
    ["trailing-newline-dropped", text.endsWith("\r\n") ? text.slice(0, -2) : text.endsWith("\n") ? text.slice(0, -1) : text],
    ["trailing-newline-added", `${text}\n`],
  ];
  for (const [how, v] of variants) if (v !== text && digestOf(Buffer.from(v, "latin1")) === declared) return how;
  return null;
}

/** A file provenance link as a finding names it: its frame, its index in provenance, its uri and range as sent (range left out when absent). */
type LinkAt = { frame: FrameAt; link: number; uri: Param; range?: Param };
const linked = (p: LinkAt): string => `${framed(p.frame)} provenance[${p.link}] (${show(p.uri, 80)}${p.range !== undefined ? ` ${show(p.range)}` : ""})`;

/** range: the link's range as the verifier read it (a string, or absent). */
type Ranged = { at: LinkAt; range?: string };
type Other = { at: LinkAt; declared: string; bytes: number; actual: string; normalized: Normalized | null };
const normalizedWords = (n: Normalized | null): string =>
  n !== null ? ` (the declared digest is of these bytes ${NORMALIZED[n]}: digest the exact bytes, with no normalization)` : "";

/**
 * Why a digest of other bytes is not shown to be one: the run did not see the
 * file hold still across a re-query serving the same digest.
 */
type Unsettled = "no-earlier-reading" | "not-served-again" | "digest-changed" | "file-changed";
const UNSETTLED: Record<Unsettled, string> = {
  "no-earlier-reading": "the file was not read before the same query was sent again (budget-squeeze, step generous)",
  "not-served-again":
    "this link of this frame was not served both to the sample query and to the same query sent again (budget-squeeze, step generous) after the file was read",
  "digest-changed": "the same query sent again (budget-squeeze, step generous) served this link of this frame with another digest",
  "file-changed": "the file read before the same query was sent again (budget-squeeze, step generous) differs from the file read after it",
};

/** A file link of a frame, as a key: the frame's id, the link's uri and range, as sent. */
const linkKey = (id: unknown, uri: unknown, range: unknown): string => JSON.stringify([id ?? null, uri ?? null, range ?? null]);

/** Every digest an answer served for each file link of its frames. */
function servedLinks(x: Exchange | undefined): Map<string, Set<unknown>> | undefined {
  const frames = x ? framesOf(x) : undefined;
  if (!frames) return undefined;
  const out = new Map<string, Set<unknown>>();
  for (const f of frames)
    for (const l of Array.isArray(f.provenance) ? f.provenance.filter(isObj) : []) {
      if (l.type !== "file") continue;
      const k = linkKey(f.id, l.uri, l.range);
      let ds = out.get(k);
      if (!ds) out.set(k, (ds = new Set()));
      ds.add(l.digest);
    }
  return out;
}

/**
 * What the run shows of a file holding still: the sample query's answer, the
 * files digested after it, and the same query sent again after that
 * (budget-squeeze's generous query), whose answer provenance-files' reading
 * follows. A transcript from before the earlier reading was taken has none.
 */
interface Requery {
  sample?: Map<string, Set<unknown>>;
  again?: Map<string, Set<unknown>>;
  /** The earlier reading of each file, taken before the same query was sent again. */
  before: Map<string, TranscriptEvent>;
  againLine?: number;
}

function requeryOf(sample: ProbeView, xs: Exchange[]): Requery {
  const first = xs.find((x) => x.probe === SAMPLE_QUERY.name && x.step === SAMPLE_QUERY.steps.sample && x.answer);
  const again = xs.find((x) => x.probe === BUDGET_SQUEEZE.name && x.step === BUDGET_SQUEEZE.steps.generous && x.answer);
  // The same query: the same query member (the envelope's id aside), and sent after the files were read.
  const same = first !== undefined && again !== undefined && JSON.stringify(first.body) === JSON.stringify(again.body);
  const before = new Map<string, TranscriptEvent>();
  for (const e of sample.events)
    if (e.dir === "file" && e.step === SAMPLE_QUERY.steps.filesBefore && e.uri !== undefined && first && e.n > first.answer!.n && !before.has(e.uri))
      before.set(e.uri, e);
  return {
    ...(first ? { sample: servedLinks(first) } : {}),
    ...(same ? { again: servedLinks(again), againLine: again.answer!.n } : {}),
    before,
  };
}

/** Why these bytes are not shown to be the ones the digest was taken over, or, where they are, the lines that show it. */
function unsettled(r: Requery, frame: Obj, link: Obj, whole: () => string): { why: Unsettled } | { lines: number[] } {
  const earlier = typeof link.uri === "string" ? r.before.get(link.uri) : undefined;
  if (earlier?.sha256 === undefined) return { why: "no-earlier-reading" };
  const k = linkKey(frame.id, link.uri, link.range);
  const first = r.sample?.get(k);
  const again = r.againLine !== undefined && r.againLine > earlier.n ? r.again?.get(k) : undefined;
  if (!first || !again) return { why: "not-served-again" };
  if ([first, again].some((ds) => ds.size !== 1 || !ds.has(link.digest))) return { why: "digest-changed" };
  if (earlier.sha256 !== whole()) return { why: "file-changed" };
  return { lines: [earlier.n, r.againLine!] };
}

const F = findings({
  "malformed-digest": {
    says: (p: { at: LinkAt; digest?: Param }) => `${linked(p.at)} digest ${show(p.digest)} is not sha256:<64 lowercase hex>`,
    expected: () => "sha256:<64 lowercase hex>",
    actual: (p: { digest?: Param }) => show(p.digest),
  },
  /** why: the reason the file was not read, as the transcript records it. */
  "file-gone": {
    cites: "the exact UTF-8 source bytes addressed by uri + range at retrieval time",
    level: "NONE",
    says: (p: { at: LinkAt; why: string }) => `${linked(p.at)} names a file that cannot be read now: ${p.why} (it may have been removed since it was served)`,
    expected: () => "the file the digest was taken over",
    actual: (p: { why: string }) => p.why,
  },
  /** unread: the transcript's kind of not reading it, which says what would. */
  "bytes-unchecked": {
    cites: "the exact UTF-8 source bytes addressed by uri + range at retrieval time",
    reading: "the bytes were not read (outside the trusted roots, over the caps, or a remote provider's files): nothing is known of them either way",
    level: "MAY",
    apart: ["unread"],
    says: (p: { why: string; unread: string | null }) =>
      `file provenance digests are well-formed, but the bytes were not checked: ${p.why}${notReadHint(p.unread)}`,
  },
  "range-reserved": {
    cites: "the exact UTF-8 source bytes addressed by uri + range at retrieval time",
    reading: "a range outside the L<n> and L<a>-<b> forms addresses bytes a verifier cannot find, and no sentence gives a range grammar to hold it to",
    level: "MAY",
    says: (p: Ranged) => `${linked(p.at)}: range ${show(p.range)} is not in the L<n> / L<a>-<b> grammar (reserved), so its bytes cannot be checked`,
  },
  "range-unaddressable": {
    level: "NONE",
    cites: "the exact UTF-8 source bytes addressed by uri + range at retrieval time",
    apart: ["reason"],
    says: (p: Ranged & { reason: string }) => `${linked(p.at)}: range ${show(p.range)} addresses nothing a verifier can digest (${p.reason})`,
    expected: () => "L<n> or L<a>-<b> within the file",
    actual: (p: Ranged) => show(p.range),
  },
  "digest-matches": { ok: true, says: () => "file provenance digests match the bytes they name" },
  /** A range's lines read without the last one's terminator: no spec text gives a range grammar, so this is a reading. */
  "range-terminator": {
    level: "NONE",
    cites: "the exact UTF-8 source bytes addressed by uri + range at retrieval time",
    reading:
      "no spec text gives a range grammar: the published range vectors keep each line's terminator, and a provider reading a range as its lines without the last terminator reads it otherwise, not against a MUST",
    says: (p: Other & { range: string }) =>
      `${linked(p.at)} declares digest ${p.declared}, the digest of range ${show(p.range)}'s ${p.bytes} bytes without the last line's terminator; the published range vectors keep it (${p.actual}), as verifiers reading them will`,
    expected: (p: Other) => p.actual,
    actual: (p: Other) => p.declared,
  },
  /** normalized: the forbidden normalization whose bytes the declared digest is of, where one is. */
  "digest-of-other-bytes": {
    apart: ["normalized"],
    says: (p: Other) =>
      `${linked(p.at)} declares digest ${p.declared}, but the ${p.bytes} bytes it names hash to ${p.actual}${normalizedWords(p.normalized)}; the file held still under the run (read the same before and after the same query was sent again, which served the same digest)`,
    expected: (p: Other) => p.actual,
    actual: (p: Other) => p.declared,
  },
  /** unsettled: what the run did not see that would show the bytes held still. */
  "digest-unsettled": {
    level: "NONE",
    reading:
      "the digest is of the bytes at retrieval time, and the run did not see these bytes hold still under it (read the same before and after a re-query that served the same digest), so they could have changed under the run",
    apart: ["unsettled", "normalized"],
    says: (p: Other & { unsettled: Unsettled }) =>
      `${linked(p.at)} declares digest ${p.declared}, but the ${p.bytes} bytes it names, as read once the sessions ended, hash to ${p.actual}${normalizedWords(
        p.normalized,
      )}; the bytes could have changed under the run: ${UNSETTLED[p.unsettled]}`,
    expected: (p: Other) => p.actual,
    actual: (p: Other) => p.declared,
  },
});

/**
 * @anchor F5
 * Stimulus: every file provenance link of every frame served to probes
 * sample-query and budget-squeeze; the files they name, digested by
 * sample-query after its answer and re-read by provenance-files once the
 * sessions end, when under a trusted root. "Digested bytes: the exact UTF-8
 * source bytes addressed by uri + range at retrieval time, with no
 * normalization."
 * Reading: F5's MUST is the grammar ("MUST carry a digest matching
 * sha256:<64 lowercase hex>"), and the definition of the digested bytes,
 * which makes that MUST checkable, binds with it (docs/readings.md, rule 3).
 * But bytes read now may differ from those at retrieval time (the file was
 * edited under the run), so a digest of other bytes fails only where the run
 * shows the file held still: the file digested after the sample query's
 * answer and read again once the sessions ended is the same, and the same
 * query sent again between the two readings (budget-squeeze's generous
 * query) served the same digest for the same link of the same frame. Then
 * the bytes at that re-query's retrieval were the bytes read, and the digest
 * is of others. Everywhere else (the file changed between the readings, the
 * re-query served another digest or not this link, or there is no earlier
 * reading, as in a transcript recorded before it was taken) the mismatch
 * warns, as could-have-changed. A trusted root is the run's word that its
 * files are the provider's. A file no longer there warns too (it may have
 * been removed since it was served), and so does a range the verifier cannot
 * address (past the end of the file): no spec text gives a range grammar to
 * hold it to.
 */
export default defineCheck({
  findings: F.table,
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
    const requery = requeryOf(views[0]!, xs);
    const wholes = new Map<TranscriptEvent, string>();
    const wholeDigest = (file: TranscriptEvent): string => {
      let d = wholes.get(file);
      if (d === undefined) wholes.set(file, (d = digestOf(Buffer.from(file.data!, "base64"))));
      return d;
    };
    const out: Evidence[] = unanswered(xs, views, { judged: servedIn(views).length > 0 });
    for (const f of servedIn(views)) {
      const links = Array.isArray(f.frame.provenance) ? f.frame.provenance.filter(isObj) : [];
      for (const [i, link] of links.entries()) {
        if (link.type !== "file") continue;
        const at: LinkAt = { frame: frameAt(f), link: i, uri: link.uri as Param, ...(link.range !== undefined ? { range: link.range as Param } : {}) };
        if (!isDigest(link.digest)) {
          out.push(F.say("malformed-digest", { at, digest: link.digest as Param }, { lines: [f.line] }));
          continue;
        }
        const file = typeof link.uri === "string" ? files.get(link.uri) : undefined;
        if (!file || file.data === undefined) {
          const why = file?.error ?? "not a file: URI";
          const lines = [f.line, ...(file ? [file.n] : [])];
          out.push(
            file?.unread !== undefined && UNREAD_THAT_FAILS.has(file.unread)
              ? F.say("file-gone", { at, why }, { lines })
              : F.say("bytes-unchecked", { why, unread: file?.unread ?? null }, { lines }),
          );
          continue;
        }
        const range = link.range === undefined || link.range === null ? undefined : String(link.range);
        const sliced = sliceRange(Buffer.from(file.data, "base64"), range);
        if (!sliced.ok && sliced.reason === "unrecognised") {
          // The published range vectors: "Not a line-range in the grammar: reserved, never a whole-resource fallback."
          out.push(F.say("range-reserved", { at, ...(range !== undefined ? { range } : {}) }, { lines: [f.line, file.n] }));
          continue;
        }
        if (!sliced.ok) {
          out.push(F.say("range-unaddressable", { at, ...(range !== undefined ? { range } : {}), reason: sliced.reason }, { lines: [f.line, file.n] }));
          continue;
        }
        const actual = digestOf(sliced.bytes);
        if (actual === link.digest) {
          out.push(F.say("digest-matches", {}, { lines: [f.line, file.n] }));
          continue;
        }
        const other: Other = {
          at,
          declared: String(link.digest),
          bytes: sliced.bytes.length,
          actual,
          normalized: normalizedHint(sliced.bytes, actual, String(link.digest)),
        };
        if (range !== undefined && lastTerminatorDropped(sliced.bytes, other.declared)) {
          out.push(F.say("range-terminator", { ...other, range }, { lines: [f.line, file.n] }));
          continue;
        }
        const held = unsettled(requery, f.frame, link, () => wholeDigest(file));
        out.push(
          "why" in held
            ? F.say("digest-unsettled", { ...other, unsettled: held.why }, { lines: [f.line, file.n] })
            : F.say("digest-of-other-bytes", other, { lines: [f.line, ...held.lines, file.n] }),
        );
      }
    }
    if (out.length === 0) return { skip: "no served frame carries file provenance" };
    return out;
  },
});
