// A provider that declares correlation (the command given as arguments) and serves requests concurrently:
// every error reply is written 100 ms late, after the replies to the requests that followed it. Legal: a
// correlated reply is matched by its id, not by its place.
import { emit, proxy } from "./lib/proxy.mjs";
proxy({
  outbound: (l) => {
    if (!l.includes('"type":"error"')) return l;
    setTimeout(() => emit(l), 100);
    return undefined;
  },
});
