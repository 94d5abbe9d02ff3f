import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import t from "tap";

// The copies in test/published/ must stay byte-for-byte what was copied from the
// published originals: SHA256SUMS records their digests at the time of copying.
// This test reads nothing outside the clone, so it means the same on every machine;
// `npm run reference:diff` compares the copies with originals beside the repository.
const here = new URL("./published/", import.meta.url);
const sums = new Map(
  readFileSync(new URL("SHA256SUMS", here), "utf8")
    .trim()
    .split("\n")
    .map((line) => {
      const [hex, name] = line.split(/ +/);
      return [name!, hex!] as const;
    }),
);

t.same(
  readdirSync(here)
    .filter((f) => f !== "README.md" && f !== "SHA256SUMS")
    .sort(),
  [...sums.keys()].sort(),
  "SHA256SUMS names every copy, and only those",
);
for (const [name, hex] of sums) {
  t.equal(
    createHash("sha256")
      .update(readFileSync(new URL(name, here)))
      .digest("hex"),
    hex,
    `${name}: unchanged since it was copied`,
  );
}
