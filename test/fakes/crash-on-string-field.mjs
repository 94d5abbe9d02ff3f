// A lock-step provider (the command given as arguments) that dies, with a Python-style TypeError on
// stderr, on a query whose max_frames is a string (R1: it MUST NOT crash on a bad request).
import { parsed, proxy } from "./lib/proxy.mjs";
proxy({
  inbound: (l) => {
    const q = parsed(l)?.query;
    if (typeof q?.max_frames === "string") throw new Error("TypeError: '<' not supported between instances of 'str' and 'int'");
    return l;
  },
});
