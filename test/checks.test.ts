/**
 * Every check's unit tests (test/checks/<ID>.test.ts and test/checks/host/<ID>.test.ts), run in this one process:
 * each is a few milliseconds of pure scoring, and as a test process of its own each cost a second and a half of
 * starting a runtime and loading the checks, 75 times over. Excluded from tap's own list in .taprc; one of them alone
 * still runs as `npx tap test/checks/B3.test.ts`. A failure names its file and line, as in a process of its own.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import t from "tap";

const dir = fileURLToPath(new URL("./checks/", import.meta.url));
const files = [
  ...readdirSync(dir).filter((f) => f.endsWith(".test.ts")),
  ...readdirSync(`${dir}host`)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => `host/${f}`),
].sort();
// An empty folder would pass vacuously: there is a test file per check, and far more than a handful.
t.ok(files.length > 50, `${files.length} check test files are run here`);
for (const f of files) await import(pathToFileURL(`${dir}${f}`).href);
