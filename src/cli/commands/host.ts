import { hostOptions } from "../host-options.ts";
import { defineCommand } from "./define.ts";

export default defineCommand({
  command: "host",
  describe: "Run a host through the scenarios and score what it sends: cgp-conform host [options] -- <host command with {provider} or {url}>",
  options: (y) => hostOptions(y),
  async run(a, { provider }) {
    const { host } = await import("../host.ts");
    return host(provider, a);
  },
});
