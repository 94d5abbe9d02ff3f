// `npm run registry`: regenerates checks/index.ts and misbehave/index.ts from the files in those folders, the schema
// validators from the schema, then the tables of the documentation pages (docs/).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generatedRegistries } from "../src/docs/registry.ts";
import { generatedValidators } from "../src/schema/compile.ts";

const root = new URL("../", import.meta.url);
for (const [path, text] of Object.entries({ ...(await generatedRegistries(root)), ...generatedValidators() })) {
  const before = existsSync(new URL(path, root)) ? readFileSync(new URL(path, root), "utf8") : "";
  if (before !== text) writeFileSync(new URL(path, root), text);
  process.stdout.write(`${path}: ${before === text ? "up to date" : "regenerated"}\n`);
}

// The documentation tables read the registries just written, so they are rendered in a fresh process.
const proc = spawnSync(process.execPath, [fileURLToPath(new URL("./doc-tables.ts", import.meta.url))], { stdio: "inherit" });
process.exit(proc.status ?? 1);
