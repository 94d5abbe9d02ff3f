import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { redact } from "../redact.ts";

/** A mistake in how cgp-conform was invoked: exit 2. */
export class UsageError extends Error {}

/** Everything cgp-conform writes goes through redact() (C8). */
export function out(text: string): void {
  process.stdout.write(redact(text));
}

export function err(text: string): void {
  process.stderr.write(redact(text));
}

export function writeOut(path: string, text: string): void {
  writeFileSync(path, redact(text));
}

export function appendOut(path: string, text: string): void {
  appendFileSync(path, redact(text));
}

export function readIn(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
}

export function positive(name: string, v: number): number {
  if (!Number.isInteger(v) || v <= 0) throw new UsageError(`--${name} must be a positive integer, got ${v}`);
  return v;
}
