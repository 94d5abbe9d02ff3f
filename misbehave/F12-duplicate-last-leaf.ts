import { canonicalOrder, identityOf } from "../src/attest/commit.ts";
import { merkleLeaf, merkleNode, merkleRoot } from "../src/math/attest.ts";
import { declaredName } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";

/** Breaks F12: §6.5.3 splits at the largest power of two (RFC 6962); it does not duplicate an odd level's last leaf. */
export default defineMode({
  name: "F12-duplicate-last-leaf",
  defect: "builds the result root with the duplicate-last-leaf shortcut (and sends no inclusion proofs)",
  expectFail: ["F12"],
  finding: { code: "F12.wrong-root", params: { diagnosis: "duplicate-last-leaf" } },
  apply: () => ({
    resultRoot(frames) {
      const name = declaredName(this);
      let level = canonicalOrder(frames, (f) => identityOf(name, f)).map((f) => merkleLeaf(this.commit(f)));
      while (level.length > 1) {
        if (level.length % 2 === 1) level = [...level, level[level.length - 1]!];
        const next: Uint8Array[] = [];
        for (let i = 0; i < level.length; i += 2) next.push(merkleNode(level[i]!, level[i + 1]!));
        level = next;
      }
      return level[0] ?? merkleRoot([]);
    },
    inclusion: () => undefined,
  }),
});
