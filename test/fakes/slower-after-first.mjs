// Starts at once the first time (FIRST_FILE marks it), then takes SLOW_MS (default 2000) every later time before
// it reads a line, as a provider does whose later starts contend for the same cores; then is the provider given as arguments.
import { existsSync, writeFileSync } from "node:fs";
import { proxy } from "./lib/proxy.mjs";
const first = !existsSync(process.env.FIRST_FILE);
if (first) writeFileSync(process.env.FIRST_FILE, "");
setTimeout(() => proxy(), first ? 0 : Number(process.env.SLOW_MS ?? 2000));
