// A provider that declares correlation (the command given as arguments) but puts on every reply the id of
// the request it received last, whichever request the reply answers (H4).
import { parsed, proxy } from "./lib/proxy.mjs";
let last;
proxy({
  inbound: (l) => {
    const id = parsed(l)?.id;
    if (id !== undefined) last = id;
    return l;
  },
  outbound: (l) => {
    const env = parsed(l);
    return env?.id !== undefined && last !== undefined ? JSON.stringify({ ...env, id: last }) : l;
  },
});
