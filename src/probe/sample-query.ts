import { awaitAnswer, defineProbe, query } from "./probe.ts";

/** One query with a generous budget: the provider's frames as it serves them. */
export default defineProbe({
  name: "sample-query",
  summary: "sends one query with a generous budget (max_frames 64, max_tokens 1000000)",
  handshake: true,
  shared: true,
  async run(s, ctx) {
    s.send("sample", query(ctx, "sample-1", {}));
    await awaitAnswer(s, "sample-1");
  },
});
