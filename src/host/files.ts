/**
 * The two files a host under test writes ({context}, {usage}): made empty in
 * the scenario's private directory before the host starts, and read back,
 * bounded, once it has ended, a line each into the scenario's record. What a
 * host leaves there is input like any other: a file grown past the caps, a
 * line that is no JSON, a FIFO or a symlink put in its place are recorded as
 * such, never followed and never waited on.
 */
import { closeSync, constants, fstatSync, openSync, readSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { redact } from "../secret/redact.ts";
import { PLACEHOLDERS } from "../protocol/host-scenarios.ts";
import { leaks, type Recorder } from "./session.ts";

/** At most this many bytes of each file are read. */
export const FILE_MAX_BYTES = 4 * 1024 * 1024;
/** At most this many lines of each file are recorded. */
export const FILE_MAX_LINES = 2000;
/** A longer line is recorded as over the cap, with its head. */
export const FILE_MAX_LINE = 1024 * 1024;
/** How much of an over-long line is kept. */
const HEAD = 4096;

export type HostFile = "context" | "usage";
export type HostFiles = Record<HostFile, string>;

/** Make both files, empty and private, in the scenario's directory. */
export function makeFiles(dir: string): HostFiles {
  const files = { context: join(dir, "context.ndjson"), usage: join(dir, "usage.ndjson") };
  for (const p of Object.values(files)) writeFileSync(p, "", { mode: 0o600 });
  return files;
}

const utf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** The file's first bytes, up to the cap (and whether there was more), or why it cannot be read. */
function head(path: string): { bytes: Buffer; more: boolean } | { error: string } {
  let fd: number;
  try {
    // Never a FIFO to block on, nor a link to follow out of the directory.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    return { error: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  }
  try {
    if (!fstatSync(fd).isFile()) return { error: "it is no longer a plain file" };
    const buf = Buffer.alloc(FILE_MAX_BYTES + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
      if (got === buf.length) break;
    }
    return got > FILE_MAX_BYTES ? { bytes: buf.subarray(0, FILE_MAX_BYTES), more: true } : { bytes: buf.subarray(0, got), more: false };
  } catch (e) {
    return { error: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  } finally {
    closeSync(fd);
  }
}

/** Record what the host wrote to each file: one event a line, the token redacted (and the forms it was in noted, as for printed lines). */
export function recordFiles(files: HostFiles, rec: Recorder, forms: Array<[string, string]>): void {
  for (const file of ["context", "usage"] as const) {
    const placeholder = PLACEHOLDERS[file];
    const r = head(files[file]);
    if ("error" in r) {
      rec.note({ note: "unreadable", reason: `${placeholder} could not be read after the host ended (${r.error}): nothing it wrote there is judged` });
      continue;
    }
    const parts: Buffer[] = [];
    for (let at = 0; at < r.bytes.length; ) {
      const nl = r.bytes.indexOf(0x0a, at);
      if (nl === -1) {
        // A last line cut by the byte cap is not the line the host wrote: only a whole one is kept.
        if (!r.more) parts.push(r.bytes.subarray(at));
        break;
      }
      parts.push(r.bytes.subarray(at, nl));
      at = nl + 1;
    }
    const kept = parts.slice(0, FILE_MAX_LINES);
    for (const bytes of kept) {
      const overLong = bytes.length > FILE_MAX_LINE;
      const text = utf8.decode(overLong ? bytes.subarray(0, HEAD) : bytes);
      const leaked = leaks(text, forms);
      rec.push({ dir: file, line: redact(text), bytes: bytes.length, ...(overLong ? { overLong: true } : {}), ...(leaked.length ? { leaked } : {}) });
    }
    if (r.more || parts.length > FILE_MAX_LINES)
      rec.note({
        note: "over-cap",
        reason: `the host wrote more than ${r.more ? `${FILE_MAX_BYTES} bytes` : `${FILE_MAX_LINES} lines`} to ${placeholder}: the rest was not read`,
      });
  }
}
