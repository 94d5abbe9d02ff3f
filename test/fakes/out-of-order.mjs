// A provider that declares correlation (the command given as arguments) and answers out of order: every
// second reply is held 40 ms, so a request sent after it is answered first. Legal: correlated replies are
// matched by id.
import { emit, proxy } from "./lib/proxy.mjs";
let n = 0;
proxy({
  outbound: (l) => {
    if (n++ % 2 === 0 || l.includes('"handshake_ack"')) return l;
    setTimeout(() => emit(l), 40);
    return undefined;
  },
});
