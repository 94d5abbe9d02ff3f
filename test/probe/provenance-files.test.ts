import t from "tap";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { collectFiles, digestFiles, FILE_LIMITS } from "../../src/probe/provenance-files.ts";
import { digestOfText } from "../../src/math/digest.ts";

function served(uri: string) {
  const line = JSON.stringify({
    type: "frames",
    result: { frames: [{ id: "a", provenance: [{ type: "file", uri, digest: "sha256:00" }] }], truncated: false },
  });
  return [{ probe: "sample-query", session: "shared", t: 0, step: "sample", dir: "recv" as const, line, bytes: line.length }];
}

t.test("a local provider's file under a trusted root is read", async (t) => {
  const root = mkdtempSync(join(tmpdir(), "cgp-prov-"));
  writeFileSync(join(root, "a.md"), "hello\n");
  const uri = pathToFileURL(join(root, "a.md")).href;
  const [file] = collectFiles(served(uri), [root]);
  t.equal(file?.uri, uri);
  t.equal(Buffer.from(file?.data ?? "", "base64").toString(), "hello\n");
});

t.test("a remote provider's file: URI is never read here, even when a file of that name exists", async (t) => {
  const root = mkdtempSync(join(tmpdir(), "cgp-prov-"));
  writeFileSync(join(root, "a.md"), "our bytes, not the provider's\n");
  const uri = pathToFileURL(join(root, "a.md")).href;
  const [file, note] = collectFiles(served(uri), [root], FILE_LIMITS, "cg.example.org");
  t.equal(file?.data, undefined, "no bytes recorded");
  t.equal(file?.unread, "remote-provider");
  t.match(file?.error, /not on this machine \(cg\.example\.org\)/);
  t.match(note?.reason, /1 file provenance URIs, 0 read/);
});

t.test("a path outside every trusted root is never looked at: missing or not, it is outside-roots (not a failure)", async (t) => {
  const root = mkdtempSync(join(tmpdir(), "cgp-prov-"));
  const elsewhere = mkdtempSync(join(tmpdir(), "cgp-prov-other-"));
  writeFileSync(join(elsewhere, "there.md"), "x\n");
  for (const path of [join(elsewhere, "there.md"), join(elsewhere, "not-here.md"), "/app/src/in-a-container.rs"]) {
    const [file] = collectFiles(served(pathToFileURL(path).href), [root]);
    t.equal(file?.unread, "outside-roots", path);
    t.equal(file?.data, undefined);
  }
  const [missing] = collectFiles(served(pathToFileURL(join(root, "gone.md")).href), [root]);
  t.equal(missing?.unread, "missing", "under a root, a missing file is missing: the provider named a file that is not there");
});

t.test("a file named by a path through a symlink is read when its real path is under a trusted root", async (t) => {
  const { mkdirSync, symlinkSync } = await import("node:fs");
  const base = mkdtempSync(join(tmpdir(), "cgp-prov-link-"));
  mkdirSync(join(base, "real"));
  writeFileSync(join(base, "real", "a.md"), "bytes\n");
  symlinkSync(join(base, "real"), join(base, "link"));
  const [file] = collectFiles(served(pathToFileURL(join(base, "link", "a.md")).href), [join(base, "real")]);
  t.equal(Buffer.from(file?.data ?? "", "base64").toString(), "bytes\n", "read: the logical path names a file under the root");
});

t.test("the earlier reading keeps each file's digest, not its bytes, under the same roots and caps", async (t) => {
  const root = mkdtempSync(join(tmpdir(), "cgp-prov-"));
  writeFileSync(join(root, "a.md"), "hello\r\n");
  writeFileSync(join(root, "big.md"), "x".repeat(20));
  const uri = (p: string): string => pathToFileURL(join(root, p)).href;
  const [a, big, outside] = digestFiles([uri("a.md"), uri("big.md"), "file:///etc/hosts"], [root], { maxFileBytes: 10, maxTotalBytes: 100 });
  t.equal(a?.sha256, digestOfText("hello\r\n"), "the digest of the exact bytes");
  t.equal(a?.data, undefined, "no bytes kept");
  t.equal(big?.unread, "too-large");
  t.equal(big?.sha256, undefined);
  t.equal(outside?.unread, "outside-roots");
  t.same(digestFiles([uri("a.md")], [root], FILE_LIMITS, "cg.example.org")[0]?.unread, "remote-provider");
});
