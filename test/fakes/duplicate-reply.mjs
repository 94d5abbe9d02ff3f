// A provider that declares correlation (the command given as arguments) and writes every frames reply
// twice: one id answered twice (H4).
import { emit, proxy } from "./lib/proxy.mjs";
proxy({
  outbound: (l) => {
    if (l.includes('"type":"frames"')) emit(l);
    return l;
  },
});
