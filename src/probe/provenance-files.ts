import { lstatSync, openSync, readSync, closeSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PROVENANCE_FILES } from "../protocol/probes.ts";
import { parseObj } from "../protocol/envelope.ts";
import type { RecordedEvent } from "./session-types.ts";

export interface FileLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
}

export const FILE_LIMITS: FileLimits = { maxFileBytes: 4 * 1024 * 1024, maxTotalBytes: 32 * 1024 * 1024 };

/** Every file:// URI named by file provenance in a frames envelope received. */
export function provenanceUris(events: Omit<RecordedEvent, "n">[]): string[] {
  const uris = new Set<string>();
  for (const e of events) {
    if (e.dir !== "recv" || e.overLong || !e.line?.includes('"frames"')) continue;
    const env = parseObj(e.line);
    if (!env) continue;
    const frames = (env as { result?: { frames?: unknown } })?.result?.frames;
    if (!Array.isArray(frames)) continue;
    for (const f of frames) {
      const prov = (f as { provenance?: unknown })?.provenance;
      if (!Array.isArray(prov)) continue;
      for (const l of prov) {
        const link = l as { type?: unknown; uri?: unknown };
        if (link?.type === "file" && typeof link.uri === "string" && link.uri.startsWith("file:")) uris.add(link.uri);
      }
    }
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

/**
 * Re-read the files that file provenance names, but only under a trusted root
 * and only for a provider on this machine (`remote` names one that is not)
 * (a provider-supplied URI is not a licence to read anywhere): the bytes go
 * into the transcript, so F5 is scored offline and replays exactly.
 */
export function collectFiles(
  events: Omit<RecordedEvent, "n">[],
  roots: string[],
  limits: FileLimits = FILE_LIMITS,
  remote?: string,
): Omit<RecordedEvent, "n">[] {
  const realRoots = roots.flatMap((r) => {
    try {
      return [realpathSync(resolve(r))];
    } catch {
      return [];
    }
  });
  const out: Omit<RecordedEvent, "n">[] = [];
  const base = { probe: PROVENANCE_FILES.name, session: PROVENANCE_FILES.name, t: 0, step: PROVENANCE_FILES.steps.read };
  let total = 0;
  let read = 0;
  const uris = provenanceUris(events);
  for (const uri of uris) {
    if (remote !== undefined) {
      // A file: URI names a path on the provider's machine: reading ours under that name would judge the wrong bytes.
      out.push({
        ...base,
        dir: "file",
        uri,
        unread: "remote-provider",
        error: `the provider is not on this machine (${remote}), so the file it names is not ours to read`,
      });
      continue;
    }
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch (e) {
      out.push({ ...base, dir: "file", uri, unread: "not-local", error: `not a local file URI: ${(e as Error).message}` });
      continue;
    }
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      // Missing here: a failure only under a trusted root. Outside every root, that it is not here says nothing
      // about the provider (one in a container or on another host names its own files).
      const under = [...roots.map((r) => resolve(r)), ...realRoots].some((r) => inside(r, resolve(path)));
      out.push(
        under
          ? { ...base, dir: "file", uri, path, unread: "missing", error: "no such file" }
          : { ...base, dir: "file", uri, path, unread: "outside-roots", error: `outside the trusted roots (${roots.join(", ")})` },
      );
      continue;
    }
    if (!realRoots.some((r) => inside(r, real))) {
      out.push({ ...base, dir: "file", uri, path, unread: "outside-roots", error: `outside the trusted roots (${roots.join(", ")})` });
      continue;
    }
    if (!lstatSync(real).isFile()) {
      out.push({ ...base, dir: "file", uri, path, unread: "not-regular", error: "not a regular file" });
      continue;
    }
    const room = Math.min(limits.maxFileBytes, limits.maxTotalBytes - total);
    const got = readCapped(real, room);
    if (typeof got === "string") {
      out.push({ ...base, dir: "file", uri, path, unread: "too-large", error: got });
      continue;
    }
    total += got.length;
    read++;
    out.push({ ...base, dir: "file", uri, path, data: got.toString("base64") });
  }
  out.push({ ...base, dir: "note", note: "files", reason: `${uris.length} file provenance URIs, ${read} read under the trusted roots` });
  return out;
}
