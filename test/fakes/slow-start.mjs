// Loads an index for SLOW_MS (default 2000) before it reads a line, then is the provider given as arguments.
import { proxy } from "./lib/proxy.mjs";
setTimeout(() => proxy(), Number(process.env.SLOW_MS ?? 2000));
