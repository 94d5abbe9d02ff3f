// The user's manual holds together: the README stays a guide (at most 400 lines), and every relative link in
// it, in docs/ and in CONTRIBUTING.md names a file that exists and, with a #fragment, a heading of that file.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import t from "tap";

const ROOT = new URL("../../", import.meta.url).pathname;
const PAGES = [
  "README.md",
  "CONTRIBUTING.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** GitHub's heading anchor: lower case, punctuation but - and _ dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Markdown links outside code: [text](target), with the target's path and fragment. */
function links(text: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  let fenced = false;
  text.split("\n").forEach((line, i) => {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) return;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) out.push({ target: m[1]!, line: i + 1 });
  });
  return out;
}

t.test("the README is a guide: at most 400 lines", async (t) => {
  const n = readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length;
  t.ok(n <= 400, `README.md has ${n} lines`);
});

t.test("slug follows GitHub's anchors", async (t) => {
  t.equal(slug("A provider off loopback: `--listen ADDR` (C4, C7)"), "a-provider-off-loopback---listen-addr-c4-c7");
  t.equal(slug("First run, from a clone"), "first-run-from-a-clone");
  t.equal(slug("Provenance attestations (§6.5)"), "provenance-attestations-65");
});

t.test("every relative link names an existing file and heading", async (t) => {
  let checked = 0;
  for (const page of PAGES) {
    const text = readFileSync(join(ROOT, page), "utf8");
    for (const { target, line } of links(text)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, fragment] = target.split("#") as [string, string | undefined];
      const file = path === "" ? join(ROOT, page) : join(ROOT, dirname(page), path);
      const where = `${page}:${line} → ${target}`;
      checked++;
      if (!existsSync(file)) {
        t.fail(`${where}: ${relative(ROOT, file)} does not exist`);
        continue;
      }
      if (fragment !== undefined && file.endsWith(".md"))
        t.ok(anchors(readFileSync(file, "utf8")).has(fragment), `${where}: a heading of ${relative(ROOT, file)}`);
    }
  }
  t.ok(checked > 20, `${checked} links checked`);
});
