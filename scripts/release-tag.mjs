// Makes the release commit the GitHub Action runs: the commit checked out
// (HEAD) plus the Node bundle built from it, dist/cgp-conform.mjs, and only it,
// tagged v<version> (package.json's). The commit hangs from the tag alone: no
// branch moves, HEAD and the work tree stay as they are, and main holds no
// built file (.gitignore ignores dist/; the bundle goes into a tree of its own).
//
//   node scripts/release-tag.mjs        (npm run release:tag)
//
// It refuses, before building, a work tree with changes (the bundle must be
// built from the very commit it is added to) and a tag that exists. Then:
// git push origin v<version>, and pin the action at the commit SHA it prints.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BUNDLE, buildBundle, ROOT } from "./build.mjs";

const git = (args, env = process.env) => execFileSync("git", args, { cwd: ROOT, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trimEnd();

/** The action's owner/name on GitHub, from the origin remote; a placeholder when there is none. */
function repository() {
  try {
    const m = /github\.com[:/]([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(git(["remote", "get-url", "origin"]));
    if (m) return m[1];
  } catch {
    // no origin
  }
  return "OWNER/cgp-conform";
}

/** Refuse what would make a release commit that is not HEAD plus its own bundle; the reason, or undefined. */
function refusal(tag) {
  const changes = git(["status", "--porcelain"]);
  if (changes)
    return `the work tree has changes (${changes.split("\n").length} paths, e.g. ${changes.split("\n")[0].slice(3)}); commit or stash them: the bundle is built from the work tree and must be HEAD's`;
  try {
    git(["rev-parse", "--quiet", "--verify", `refs/tags/${tag}`]);
    return `tag ${tag} exists; bump the version in package.json (and commit it) for a new release`;
  } catch {
    return undefined;
  }
}

function main(args) {
  if (args.length > 0) {
    console.error(`release-tag: takes no arguments (got ${args.join(" ")}); it tags HEAD as v<version of package.json>`);
    return 2;
  }
  let head;
  let tag;
  try {
    head = git(["rev-parse", "--verify", "HEAD^{commit}"]);
    tag = `v${JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version}`;
    const why = refusal(tag);
    if (why) {
      console.error(`release-tag: ${why}. Nothing built or tagged`);
      return 1;
    }
  } catch (err) {
    console.error(`release-tag: ${err.message.split("\n")[0]}. Nothing built or tagged`);
    return 1;
  }
  const branch = git(["rev-parse", "--abbrev-ref", "HEAD"]);
  try {
    buildBundle();
    // The bundle must be the release it is tagged as.
    const version = execFileSync(process.execPath, [join(ROOT, BUNDLE), "--version"], { encoding: "utf8", timeout: 60_000 }).trim();
    if (`v${version}` !== tag) throw new Error(`the bundle says it is ${version}, not ${tag.slice(1)}`);
  } catch (err) {
    console.error(`release-tag: building ${BUNDLE} failed (${err.message.split("\n")[0]}). Nothing tagged`);
    return 1;
  }
  const sha256 = createHash("sha256")
    .update(readFileSync(join(ROOT, BUNDLE)))
    .digest("hex");
  // HEAD's tree plus the bundle, in an index of its own: the repository's index and work tree are never touched.
  const scratch = mkdtempSync(join(tmpdir(), "cgp-release-tag-"));
  let commit;
  try {
    const env = { ...process.env, GIT_INDEX_FILE: join(scratch, "index") };
    const blob = git(["hash-object", "-w", "--", BUNDLE]);
    git(["read-tree", head], env);
    git(["update-index", "--add", "--cacheinfo", `100755,${blob},${BUNDLE}`], env);
    const tree = git(["write-tree"], env);
    const message = `Release ${tag}\n\n${head} (${branch}) with ${BUNDLE}, the Node bundle built from it that the GitHub Action runs\n(sha256 ${sha256}). No branch holds this commit: the tag does.\n`;
    commit = git(["commit-tree", tree, "-p", head, "-m", message]);
    git(["tag", "-a", tag, commit, "-m", `cgp-conform ${tag}`]);
  } catch (err) {
    console.error(`release-tag: making the release commit failed (${err.message.split("\n")[0]}). Nothing tagged`);
    return 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`${BUNDLE}: sha256 ${sha256}, built from ${head} (${branch})`);
  console.log(`release commit ${commit}: ${head} plus ${BUNDLE}, on no branch`);
  console.log(`tag ${tag} (annotated) -> ${commit}`);
  console.log(`push it:  git push origin ${tag}`);
  console.log(`pin it:   uses: ${repository()}@${commit}  # ${tag}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(main(process.argv.slice(2)));
