import { lstatSync, openSync, readSync, closeSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PROVENANCE_FILES } from "../protocol/probes.ts";
import { parseObj } from "../protocol/envelope.ts";
import { digestOf } from "../math/digest.ts";
import type { FileUnread } from "../transcript/types.ts";
import type { RecordedEvent } from "./session-types.ts";

export interface FileLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
}

export const FILE_LIMITS: FileLimits = { maxFileBytes: 4 * 1024 * 1024, maxTotalBytes: 32 * 1024 * 1024 };

/** Every file:// URI named by file provenance in one frames envelope. */
export function provenanceUrisIn(env: unknown): string[] {
  const uris = new Set<string>();
  const frames = (env as { result?: { frames?: unknown } })?.result?.frames;
  if (!Array.isArray(frames)) return [];
  for (const f of frames) {
    const prov = (f as { provenance?: unknown })?.provenance;
    if (!Array.isArray(prov)) continue;
    for (const l of prov) {
      const link = l as { type?: unknown; uri?: unknown };
      if (link?.type === "file" && typeof link.uri === "string" && link.uri.startsWith("file:")) uris.add(link.uri);
    }
  }
  return [...uris].sort();
}

/** Every file:// URI named by file provenance in a frames envelope received. */
export function provenanceUris(events: Omit<RecordedEvent, "n">[]): string[] {
  const uris = new Set<string>();
  for (const e of events) {
    if (e.dir !== "recv" || e.overLong || !e.line?.includes('"frames"')) continue;
    const env = parseObj(e.line);
    if (env) for (const u of provenanceUrisIn(env)) uris.add(u);
  }
  return [...uris].sort();
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function readCapped(path: string, max: number): Buffer | string {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(max + 1);
    const n = readSync(fd, buf, 0, max + 1, 0);
    return n > max ? `larger than ${max} bytes: not read` : buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** One file as read: its bytes, or why they were not read. */
export type FileReading = { uri: string; path?: string } & ({ bytes: Buffer } | { unread: FileUnread; error: string });

/**
 * Read the files these file: URIs name, but only under a trusted root and
 * only for a provider on this machine (`remote` names one that is not) (a
 * provider-supplied URI is not a licence to read anywhere), each within the
 * per-file cap and all within the per-run cap.
 */
export function readFiles(uris: readonly string[], roots: string[], limits: FileLimits = FILE_LIMITS, remote?: string): FileReading[] {
  const realRoots = roots.flatMap((r) => {
    try {
      return [realpathSync(resolve(r))];
    } catch {
      return [];
    }
  });
  const out: FileReading[] = [];
  let total = 0;
  for (const uri of uris) {
    if (remote !== undefined) {
      // A file: URI names a path on the provider's machine: reading ours under that name would judge the wrong bytes.
      out.push({ uri, unread: "remote-provider", error: `the provider is not on this machine (${remote}), so the file it names is not ours to read` });
      continue;
    }
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch (e) {
      out.push({ uri, unread: "not-local", error: `not a local file URI: ${(e as Error).message}` });
      continue;
    }
    const outside = { uri, path, unread: "outside-roots" as const, error: `outside the trusted roots (${roots.join(", ")})` };
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      // Missing here: a failure only under a trusted root. Outside every root, that it is not here says nothing
      // about the provider (one in a container or on another host names its own files).
      const under = [...roots.map((r) => resolve(r)), ...realRoots].some((r) => inside(r, resolve(path)));
      out.push(under ? { uri, path, unread: "missing", error: "no such file" } : outside);
      continue;
    }
    if (!realRoots.some((r) => inside(r, real))) {
      out.push(outside);
      continue;
    }
    if (!lstatSync(real).isFile()) {
      out.push({ uri, path, unread: "not-regular", error: "not a regular file" });
      continue;
    }
    const got = readCapped(real, Math.min(limits.maxFileBytes, limits.maxTotalBytes - total));
    if (typeof got === "string") {
      out.push({ uri, path, unread: "too-large", error: got });
      continue;
    }
    total += got.length;
    out.push({ uri, path, bytes: got });
  }
  return out;
}

/** A file event as a probe records it (the session adds where and when). */
export type FileRecord = Omit<RecordedEvent, "probe" | "session" | "t" | "step">;

const unreadRecord = (r: Extract<FileReading, { unread: FileUnread }>): FileRecord => ({
  dir: "file",
  uri: r.uri,
  ...(r.path !== undefined ? { path: r.path } : {}),
  unread: r.unread,
  error: r.error,
});

/**
 * Re-read the files that file provenance names (readFiles): the bytes go into
 * the transcript, so F5 is scored offline and replays exactly.
 */
export function collectFiles(
  events: Omit<RecordedEvent, "n">[],
  roots: string[],
  limits: FileLimits = FILE_LIMITS,
  remote?: string,
): Omit<RecordedEvent, "n">[] {
  const base = { probe: PROVENANCE_FILES.name, session: PROVENANCE_FILES.name, t: 0, step: PROVENANCE_FILES.steps.read };
  const uris = provenanceUris(events);
  const readings = readFiles(uris, roots, limits, remote);
  const out: Omit<RecordedEvent, "n">[] = readings.map((r) =>
    "bytes" in r
      ? { ...base, dir: "file", uri: r.uri, ...(r.path !== undefined ? { path: r.path } : {}), data: r.bytes.toString("base64") }
      : { ...base, ...unreadRecord(r) },
  );
  const read = readings.filter((r) => "bytes" in r).length;
  out.push({ ...base, dir: "note", note: "files", reason: `${uris.length} file provenance URIs, ${read} read under the trusted roots` });
  return out;
}

/**
 * An earlier reading of the same files, for F5 to tell bytes that held still
 * from bytes that may have changed under the run: each file's sha256 digest
 * (sha256:<hex> of the bytes read, within the same caps), not its bytes,
 * which the later reading (collectFiles) keeps.
 */
export function digestFiles(uris: readonly string[], roots: string[], limits: FileLimits = FILE_LIMITS, remote?: string): FileRecord[] {
  return readFiles(uris, roots, limits, remote).map((r) =>
    "bytes" in r ? { dir: "file", uri: r.uri, ...(r.path !== undefined ? { path: r.path } : {}), sha256: digestOf(r.bytes) } : unreadRecord(r),
  );
}
