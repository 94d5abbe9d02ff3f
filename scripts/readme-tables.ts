// Regenerates the checks, modes and probes tables in README.md from the registry.
import { readFileSync, writeFileSync } from "node:fs";
import { renderTables } from "../src/docs/tables.ts";

const path = new URL("../README.md", import.meta.url);
const before = readFileSync(path, "utf8");
const after = renderTables(before);
if (after !== before) writeFileSync(path, after);
process.stdout.write(after === before ? "README tables are up to date\n" : "README tables regenerated\n");
