import { appendFileSync, closeSync, existsSync, openSync, readSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { heavyInput } from "../meta/jit.ts";
import { redact } from "../secret/redact.ts";

/** A mistake in how cgp-conform was invoked: exit 2. */
export class UsageError extends Error {}

/** Set once stdout's reader has gone (`| head`): the run still ends with its verdict's exit code, writing nothing more there. */
let stdoutGone = false;
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
  stdoutGone = true;
});

/** Everything cgp-conform writes goes through redact() (C8). */
export function out(text: string): void {
  if (stdoutGone) return;
  try {
    process.stdout.write(redact(text));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPIPE") throw e;
    stdoutGone = true;
  }
}

/** An output file the run was asked for could not be written: said on stderr, and the exit code says so. */
export class OutputError extends Error {}

/** Write an output file; a failure is an OutputError naming the file, never a stack trace. */
export function writeOutput(path: string, text: string, what: string): void {
  try {
    writeOut(path, text);
  } catch (e) {
    throw new OutputError(`cannot write ${what} ${path}: ${(e as Error).message}`);
  }
}

export function err(text: string): void {
  process.stderr.write(redact(text));
}

export function writeOut(path: string, text: string): void {
  writeFileSync(path, redact(text));
}

/** Write a new file only this user can read, never over an existing one; redacted like every other output. */
export function writePrivate(path: string, text: string): void {
  writeFileSync(path, redact(text), { mode: 0o600, flag: "wx" });
}

export function appendOut(path: string, text: string): void {
  appendFileSync(path, redact(text));
}

/** Append where failure must not change the run's verdict (the Actions step summary): warn instead. */
export function appendBestEffort(path: string, text: string): void {
  try {
    appendOut(path, text);
  } catch (e) {
    err(`cgp-conform: warning: could not write ${path}: ${(e as Error).message}\n`);
  }
}

/** The most any input file (a transcript, a fixture, a baseline, a CA bundle) may hold: a run's transcript is far smaller. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** Read an input file whole, but never more than `max` bytes (`/dev/zero` is refused, not read forever). */
export function readIn(path: string, max = MAX_INPUT_BYTES): string {
  return readInBytes(path, max).toString("utf8");
}

/**
 * A file's bytes, undecoded (a transcript is decoded line by line: one
 * character beyond Latin-1 anywhere would make the whole text, and every
 * line cut from it, two bytes a character).
 */
export function readInBytes(path: string, max = MAX_INPUT_BYTES): Buffer {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.alloc(Math.min(1024 * 1024, max + 1 - total));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > max) throw new UsageError(`${path} is larger than ${max} bytes: not read`);
      chunks.push(buf.subarray(0, n));
    }
    heavyInput(total);
    return Buffer.concat(chunks);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** The longest delay a timer can hold (2^31 - 1 ms, about 24.8 days). */
const MAX_MS = 2_147_483_647;

export function positive(name: string, v: number): number {
  if (!Number.isInteger(v) || v <= 0) throw new UsageError(`--${name} must be a positive integer, got ${v}`);
  if (v > MAX_MS) throw new UsageError(`--${name} must be at most ${MAX_MS}, got ${v}`);
  return v;
}

/** Fail before the run, not after it, if an output path cannot be written. */
export function writable(path: string, what: string): void {
  const dir = dirname(resolve(path));
  if (existsSync(path) && statSync(path).isDirectory()) throw new UsageError(`${what} ${path} is a directory`);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${what} ${path}: the directory ${dir} does not exist`);
}

/** Refused before anything is sent: C7 names the rule, so the run "could not run" (exit 3). */
export class RefusedTargetError extends Error {}
