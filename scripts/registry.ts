// `npm run registry`: regenerates checks/index.ts and misbehave/index.ts from the files in those folders, then the README tables.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { NOT_REGISTERED, registeredNames, renderChecksIndex, renderModesIndex, reportOrder, specAnchors } from "../src/docs/registry.ts";

const at = (p: string): URL => new URL(`../${p}`, import.meta.url);

function write(path: string, text: string): void {
  const before = readFileSync(at(path), "utf8");
  if (before !== text) writeFileSync(at(path), text);
  process.stdout.write(`${path}: ${before === text ? "up to date" : "regenerated"}\n`);
}

const anchors = specAnchors(readFileSync(at("test/reference/protocol-surface.txt"), "utf8"));
const ids = registeredNames(readdirSync(at("checks")), NOT_REGISTERED.checks);
const defs = await Promise.all(ids.map(async (id) => (await import(`../checks/${id}.ts`)).default as { id: string; follows?: string }));
for (const [i, d] of defs.entries()) if (d.id !== ids[i]) throw new Error(`checks/${ids[i]}.ts defines check ${d.id}: the file name is the anchor`);
write("checks/index.ts", renderChecksIndex(reportOrder(defs, anchors)));
write("misbehave/index.ts", renderModesIndex(registeredNames(readdirSync(at("misbehave")), NOT_REGISTERED.misbehave)));

// The README tables read the registries just written, so they are rendered in a fresh process.
const proc = spawnSync(process.execPath, [fileURLToPath(new URL("./readme-tables.ts", import.meta.url))], { stdio: "inherit" });
process.exit(proc.status ?? 1);
