// The provider given as arguments, with two defects of a real SDK example: a verify whose request.frames is not
// an array kills it, and its verified replies drop the request's id (H4).
import { parsed, proxy } from "./lib/proxy.mjs";
proxy({
  inbound(line) {
    const env = parsed(line);
    if (env?.type === "verify" && !Array.isArray(env.request?.frames)) throw new Error("AttributeError: 'str' object has no attribute 'get'");
    return line;
  },
  outbound(line) {
    const env = parsed(line);
    if (env?.type !== "verified" || env.id === undefined) return line;
    const { id: _id, ...rest } = env;
    return JSON.stringify(rest);
  },
});
