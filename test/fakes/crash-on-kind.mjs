// The provider given as arguments, except that every query whose kinds name CRASH_KIND (default "symbol") kills it.
import { parsed, proxy } from "./lib/proxy.mjs";
const kind = process.env.CRASH_KIND ?? "symbol";
proxy({
  inbound(line) {
    const kinds = parsed(line)?.query?.kinds;
    if (Array.isArray(kinds) && kinds.includes(kind)) throw new Error(`KeyError: '${kind}'`);
    return line;
  },
});
