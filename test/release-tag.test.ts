/**
 * scripts/release-tag.mjs in a repository of its own: a temp one holding this
 * work tree's files as its one commit on main (node_modules linked in, not
 * committed). The tag's tree is main's plus the bundle, main's holds no built
 * file, and the tag's tree, unpacked, is an action that runs; main's fails
 * saying what to pin.
 */
import { execa } from "execa";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import t from "tap";
import { CGP, ROOT } from "./helpers/live.ts";

const tmp = mkdtempSync(join(tmpdir(), "cgp-release-tag-"));
// The user's git configuration (signing, hooks, templates) has no say in the sandbox.
const GIT_ENV = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};

async function git(repo: string, args: string[]): Promise<string> {
  const r = await execa("git", args, { cwd: repo, env: GIT_ENV });
  return r.stdout.trim();
}

/** A repository whose one commit on main is this work tree's files (tracked and new, not ignored). */
async function sandbox(): Promise<string> {
  const repo = mkdtempSync(join(tmp, "repo-"));
  const files = (await execa("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT })).stdout.split("\0").filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(ROOT, f))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(repo, f)), { recursive: true });
    cpSync(join(ROOT, f), join(repo, f));
  }
  symlinkSync(join(ROOT, "node_modules"), join(repo, "node_modules"));
  await git(repo, ["init", "-q", "-b", "main"]);
  for (const [k, v] of [
    ["user.name", "Release Test"],
    ["user.email", "release@example.invalid"],
  ])
    await git(repo, ["config", k, v!]);
  await git(repo, ["remote", "add", "origin", "https://github.com/someone/cgp-conform.git"]);
  // The symlink is no directory, so .gitignore's node_modules/ does not cover it.
  writeFileSync(join(repo, ".git", "info", "exclude"), "/node_modules\n");
  await git(repo, ["add", "-A"]);
  await git(repo, ["commit", "-q", "-m", "main"]);
  return repo;
}

const releaseTag = (repo: string, args: string[] = []) =>
  execa(process.execPath, [join(repo, "scripts", "release-tag.mjs"), ...args], { cwd: repo, reject: false, env: GIT_ENV, timeout: 170_000 });

/** The tree of `rev` unpacked into a directory whose path holds spaces and non-ASCII, as a runner's checkout of the action. */
async function unpack(repo: string, rev: string): Promise<string> {
  const dir = mkdtempSync(join(tmp, `checkout ${rev} é `));
  await git(repo, ["archive", "--format=tar", "-o", join(tmp, `${rev}.tar`), rev]);
  await execa("tar", ["-xf", join(tmp, `${rev}.tar`), "-C", dir]);
  return dir;
}

/** The action's entry in `dir`, run as the runner runs it. */
function runAction(dir: string, inputs: Record<string, string>) {
  const run = mkdtempSync(join(tmp, "run-"));
  writeFileSync(join(run, "output"), "");
  return execa(process.execPath, [join(dir, "scripts", "action-entry.mjs")], {
    reject: false,
    cwd: run,
    env: {
      GITHUB_ACTIONS: "true",
      GITHUB_OUTPUT: join(run, "output"),
      RUNNER_TEMP: run,
      NO_COLOR: "1",
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    },
  }).then((r) => ({ ...r, output: readFileSync(join(run, "output"), "utf8") }));
}

const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
const TAG = `v${version}`;

t.test("a work tree with changes or an argument: refused before building, nothing tagged", async (t) => {
  const repo = await sandbox();
  writeFileSync(join(repo, "src", "uncommitted.ts"), "export {};\n");
  const dirty = await releaseTag(repo);
  t.equal(dirty.exitCode, 1, dirty.stderr);
  t.match(dirty.stderr, /the work tree has changes \(1 paths, e\.g\. src\/uncommitted\.ts\); commit or stash them.*Nothing built or tagged/);
  t.equal(await git(repo, ["tag", "--list"]), "", "no tag");
  t.notOk(existsSync(join(repo, "dist")), "nothing built");
  rmSync(join(repo, "src", "uncommitted.ts"));
  const arg = await releaseTag(repo, ["0.2.0"]);
  t.equal(arg.exitCode, 2, arg.stderr);
  t.match(arg.stderr, /takes no arguments/);
});

t.test("the release commit: main plus the bundle alone, on the tag alone; main, HEAD and the work tree as they were", async (t) => {
  const repo = await sandbox();
  const main = await git(repo, ["rev-parse", "main"]);
  const r = await releaseTag(repo);
  t.equal(r.exitCode, 0, r.stderr);
  const commit = await git(repo, ["rev-parse", `${TAG}^{commit}`]);
  t.match(commit, /^[0-9a-f]{40}$/);
  t.match(r.stdout, `release commit ${commit}: ${main} plus dist/cgp-conform.mjs, on no branch`);
  t.match(r.stdout, `push it:  git push origin ${TAG}\n`);
  t.match(r.stdout, `pin it:   uses: someone/cgp-conform@${commit}  # ${TAG}`, "the SHA to pin is the commit's, not the tag object's");
  t.equal(await git(repo, ["cat-file", "-t", TAG]), "tag", "an annotated tag");
  t.equal(await git(repo, ["rev-parse", `${commit}^`]), main, "its parent is main");
  t.equal(await git(repo, ["diff", "--name-status", "main", TAG]), "A\tdist/cgp-conform.mjs", "it adds the bundle and only it");
  t.match(await git(repo, ["ls-tree", TAG, "dist/cgp-conform.mjs"]), /^100755 blob /, "executable, as built");
  t.equal(await git(repo, ["ls-tree", "-r", "--name-only", "main", "dist"]), "", "main holds no built file");
  t.equal(await git(repo, ["rev-parse", "main"]), main, "main did not move");
  t.equal(await git(repo, ["symbolic-ref", "HEAD"]), "refs/heads/main", "HEAD is still main");
  t.equal(await git(repo, ["branch", "--format=%(refname)"]), "refs/heads/main", "no branch made");
  t.equal(await git(repo, ["status", "--porcelain"]), "", "the work tree and index are clean");
  t.equal(await git(repo, ["rev-parse", `${TAG}:dist/cgp-conform.mjs`]), await git(repo, ["hash-object", "dist/cgp-conform.mjs"]), "the bundle built");

  const again = await releaseTag(repo);
  t.equal(again.exitCode, 1, "a second run");
  t.match(again.stderr, `tag ${TAG} exists; bump the version`);
  t.equal(await git(repo, ["rev-parse", `${TAG}^{commit}`]), commit, "the tag did not move");

  // The tag's tree is an action that runs; main's says what to pin.
  const released = await unpack(repo, TAG);
  const provider = `${CGP.map((w) => `"${w}"`).join(" ")} fixture --attest`;
  const ok = await runAction(released, { "provider-command": provider, only: "B*" });
  t.equal(ok.exitCode, 0, ok.stdout.slice(-600));
  t.match(ok.output, /^conformant=true$/m);
  const unbuilt = await runAction(await unpack(repo, "main"), { "provider-command": provider, only: "B*" });
  t.equal(unbuilt.exitCode, 2);
  t.match(unbuilt.stdout, /^::error::this checkout of the action holds no dist\/cgp-conform\.mjs, so it is not a release/m);
});
