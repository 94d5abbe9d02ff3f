import { defineMode } from "./mode.ts";
import { framesIn, type Obj } from "../src/protocol/envelope.ts";

/** Breaks identity (context-reuse §1): "Two frames with the same identity MUST have the same content bytes". */
export default defineMode({
  name: "D1-unstable-content",
  defect: "serves different content under the same frame id and content_digest when a query narrows kinds",
  expectFail: ["D1"],
  finding: "D1.unstable-content",
  apply: (honest) => ({
    onQuery(env) {
      const out = honest.onQuery.call(this, env);
      const q = env.query as { kinds?: unknown[] } | undefined;
      if (!Array.isArray(q?.kinds) || q.kinds.length === 0) return out;
      return out.map((reply) => {
        if (reply.type !== "frames") return reply;
        const frames = framesIn(reply).map((f: Obj) => {
          const content = `${f.content as string}(narrowed)\n`;
          return { ...f, content, token_cost: this.tokenCost(content) };
        });
        return { ...reply, result: { ...(reply.result as Obj), frames } };
      });
    },
  }),
});
