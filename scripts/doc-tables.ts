// Regenerates the checks, modes, probes and host tables in the documentation pages (docs/) from the registry.
import { readFileSync, writeFileSync } from "node:fs";
import { DOC_PAGES, renderTables } from "../src/docs/tables.ts";

for (const page of Object.keys(DOC_PAGES)) {
  const path = new URL(`../${page}`, import.meta.url);
  const before = readFileSync(path, "utf8");
  const after = renderTables(before, page);
  if (after !== before) writeFileSync(path, after);
  process.stdout.write(`${page}: ${after === before ? "tables up to date" : "tables regenerated"}\n`);
}
