import { existsSync, readdirSync, readFileSync } from "node:fs";
import t from "tap";

// The copies in test/reference/ must stay byte-for-byte the published originals.
const here = new URL("./reference/", import.meta.url);
const originals: Record<string, URL> = {
  "protocol-surface.txt": new URL("../../shared/spec/protocol-surface.txt", import.meta.url),
};
for (const f of readdirSync(here)) {
  if (f === "README.md" || f in originals) continue;
  originals[f] = new URL(`../../shared/reference/${f}`, import.meta.url);
}

for (const [name, original] of Object.entries(originals)) {
  t.test(name, { skip: existsSync(original) ? false : "the originals are not beside this clone" }, async (t) => {
    t.ok(readFileSync(new URL(name, here)).equals(readFileSync(original)), "identical to the published original");
  });
}
