/**
 * The pure unit tests, run in this one process: every check's (test/checks/<ID>.test.ts, test/checks/host/<ID>.test.ts),
 * and those of the math, the schemas, the verdict, the docs and the runtime's settings (meta). Each file is milliseconds of work on values in
 * memory; as a test process of its own each cost a second and a half of starting a runtime and loading the modules,
 * 93 times over. These folders hold no test that spawns, listens, sets the environment or registers a secret, as a
 * test beside others in one process must not. They are excluded from tap's own list in .taprc; one file alone still
 * runs as `npx tap test/checks/B3.test.ts`. A failure names its file and line, as in a process of its own.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import t from "tap";

/** The folders run here, each as .taprc's exclude lists it. */
export const PURE = ["checks", "checks/host", "math", "schema", "verdict", "docs", "meta"];

const root = fileURLToPath(new URL("./", import.meta.url));
const files = PURE.flatMap((dir) =>
  readdirSync(`${root}${dir}`)
    .filter((f) => f.endsWith(".test.ts"))
    .sort()
    .map((f) => `${dir}/${f}`),
);
// A folder read as empty would pass vacuously: each holds test files, the checks' one per check.
for (const dir of PURE) t.ok(files.filter((f) => f.startsWith(`${dir}/`) && !f.slice(dir.length + 1).includes("/")).length > 0, `${dir}/ has tests run here`);
t.ok(files.filter((f) => f.startsWith("checks/")).length > 50, "a test file per check");
for (const f of files) await import(pathToFileURL(`${root}${f}`).href);
