import { awaitSync, defineProbe, query } from "./probe.ts";

/** R1 stimuli, in order. Each is followed by a valid query that must still be answered. */
export const STIMULI = [
  { step: "bad-garbage", what: "a line that is not JSON", line: "this is not json {{" },
  { step: "bad-empty-object", what: "an empty JSON object", line: "{}" },
  { step: "bad-array", what: "a JSON array", line: "[]" },
  { step: "bad-query-no-body", what: "a query with no query member", line: '{"type":"query"}' },
  { step: "bad-query-wrong-types", what: "a query whose fields have the wrong types", line: '{"type":"query","query":{"goal":7,"kinds":"doc","max_frames":"many"}}' },
] as const;

export const afterStep = (step: string): string => `after-${step}`;

export default defineProbe({
  name: "malformed-input",
  summary: "sends malformed lines and bad requests, each followed by a valid query",
  handshake: true,
  shared: false,
  async run(s, ctx) {
    for (const [i, st] of STIMULI.entries()) {
      s.send(st.step, st.line);
      const id = `sync-${i + 1}`;
      s.send(afterStep(st.step), query(ctx, id, {}));
      if (!(await awaitSync(s, ctx, id))) return;
    }
  },
});
