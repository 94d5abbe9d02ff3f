/**
 * Defect: the identities of its verify carry each frame's content and title beside its identity.
 * Breaks V1: "A verify request MUST carry frame identities only — no frame bodies."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "V1-bodies-in-verify",
  defect: "puts each frame's content and title into the identities of its verify",
  expectFail: ["host:V1"],
  finding: { code: "host:V1.frame-bodies", params: { members: ["content", "title"] } },
  apply: (honest) => ({
    identity(ack, frame) {
      const id = honest.identity.call(this, ack, frame);
      return id === undefined ? undefined : { ...id, content: frame.content, title: frame.title };
    },
  }),
});
