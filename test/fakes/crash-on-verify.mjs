// The provider given as arguments, except that every verify kills it.
import { parsed, proxy } from "./lib/proxy.mjs";
proxy({
  inbound(line) {
    if (parsed(line)?.type === "verify") throw new Error("NotImplementedError: verify");
    return line;
  },
});
