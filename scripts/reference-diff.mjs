#!/usr/bin/env node
// Compares test/published/ with the published originals beside the repository
// (../shared/spec and ../shared/reference, or the directory given as the first
// argument) and names each copy that differs. Exit 1 when one differs, 2 when no
// original is found. Not part of `npm test`: what lies outside the clone differs
// from machine to machine.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const shared = resolve(process.argv[2] ?? join(root, "..", "shared"));
const here = join(root, "test", "published");
const digest = (p) => createHash("sha256").update(readFileSync(p)).digest("hex");

let found = 0;
let differ = 0;
for (const name of readdirSync(here)) {
  if (name === "README.md" || name === "SHA256SUMS") continue;
  const original = join(shared, name.endsWith(".txt") ? "spec" : "reference", name);
  if (!existsSync(original)) {
    console.log(`absent   ${name} (no ${original})`);
    continue;
  }
  found++;
  const same = digest(original) === digest(join(here, name));
  if (!same) differ++;
  console.log(`${same ? "same    " : "DIFFERS "} ${name}`);
}
if (found === 0) {
  console.error(`no original found under ${shared}`);
  process.exit(2);
}
if (differ > 0) console.log(`${differ} cop${differ === 1 ? "y differs" : "ies differ"}: copy the original over it, update SHA256SUMS, and re-run npm test`);
process.exit(differ > 0 ? 1 : 0);
