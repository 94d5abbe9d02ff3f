// The provider given as arguments, with two bugs that end it the same way (exit 1) but say different things:
// an envelope type it does not know raises ValueError, a query whose kinds name "symbol" raises KeyError.
import { parsed, proxy } from "./lib/proxy.mjs";
const KNOWN = new Set(["handshake", "query", "verify", "shutdown"]);
proxy({
  inbound(line) {
    const env = parsed(line);
    if (env && typeof env.type === "string" && !KNOWN.has(env.type)) throw new Error(`ValueError: unknown message type ${env.type}`);
    if (Array.isArray(env?.query?.kinds) && env.query.kinds.includes("symbol")) throw new Error("KeyError: 'symbol'");
    return line;
  },
});
