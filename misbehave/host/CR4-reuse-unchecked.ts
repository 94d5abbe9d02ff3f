/**
 * Defect: against a provider that declares no verify, its second turn keeps every frame it holds beside what the
 * query again serves, as if each were confirmed: the stored copy of a frame the provider changed or no longer serves
 * reaches the block.
 * Breaks context-reuse §4: "Against a provider that doesn't, the host MUST fall back to re-querying rather than
 * reusing unchecked (requirement V3)".
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "CR4-reuse-unchecked",
  defect: "reuses the stored body of every frame a provider without verify served, beside what it queries again",
  expectFail: ["host:CR4-fallback"],
  finding: { code: "host:CR4-fallback.stored-copy", params: { markers: ["cgpmark-rq-02", "cgpmark-rq-03", "cgpmark-rq-04"] } },
  apply: (honest) => ({
    reuses(frame, verdict, ack) {
      return (ack !== undefined && !this.wantsVerify(ack)) || honest.reuses.call(this, frame, verdict, ack);
    },
    requeries(dropped, ack) {
      return (ack !== undefined && !this.wantsVerify(ack)) || honest.requeries.call(this, dropped, ack);
    },
  }),
});
