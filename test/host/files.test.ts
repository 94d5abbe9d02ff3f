/**
 * The two files a host writes, read back after it ends: bounded, one event a
 * line, nothing a host leaves there able to crash or stall the run.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { FILE_MAX_BYTES, FILE_MAX_LINE, FILE_MAX_LINES, makeFiles, recordFiles } from "../../src/host/files.ts";
import { Recorder } from "../../src/host/session.ts";
import { registerSecret } from "../../src/secret/redact.ts";

const TOKEN = "files-test-token-5e1f0a";
registerSecret(TOKEN);
const forms: Array<[string, string]> = [["raw", TOKEN]];

function read(write: (files: { context: string; usage: string }) => void) {
  const dir = mkdtempSync(join(tmpdir(), "cgp-files-"));
  try {
    const files = makeFiles(dir);
    write(files);
    const rec = new Recorder();
    rec.begin("lock-step");
    recordFiles(files, rec, forms);
    return rec.events;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

t.test("each line is an event of its file, as written; a last line without its newline counts", async (t) => {
  const events = read((f) => {
    writeFileSync(f.context, '{"text":"a"}\n{"text":"b"}');
    writeFileSync(f.usage, 'not json\n{"budget_consumed":1}\r\n');
  });
  t.same(
    events.map((e) => [e.dir, e.line, e.bytes]),
    [
      ["context", '{"text":"a"}', 12],
      ["context", '{"text":"b"}', 12],
      ["usage", "not json", 8],
      ["usage", '{"budget_consumed":1}\r', 22],
    ],
  );
});

t.test("empty files record nothing", async (t) => {
  t.same(
    read(() => {}),
    [],
  );
});

t.test("past the caps: an over-long line keeps its head, lines past the count and bytes past the size are not read, and say so", async (t) => {
  const long = read((f) => writeFileSync(f.context, `${"x".repeat(FILE_MAX_LINE + 1)}\n{"text":"after"}\n`));
  t.equal(long[0]!.overLong, true);
  t.equal(long[0]!.bytes, FILE_MAX_LINE + 1);
  t.equal(long[0]!.line!.length, 4096);
  t.equal(long[1]!.line, '{"text":"after"}', "the next line is read");
  const many = read((f) => writeFileSync(f.usage, "{}\n".repeat(FILE_MAX_LINES + 5)));
  t.equal(many.filter((e) => e.dir === "usage").length, FILE_MAX_LINES);
  t.match(many.find((e) => e.note === "over-cap")?.reason, /more than 2000 lines to \{usage\}: the rest was not read/);
  const big = read((f) => {
    for (let i = 0; i < 5; i++) appendFileSync(f.context, `${"y".repeat(FILE_MAX_BYTES / 4 - 1)}\n`);
  });
  t.equal(big.filter((e) => e.dir === "context").length, 4, "the line the byte cap cuts is not kept");
  t.match(big.find((e) => e.note === "over-cap")?.reason, /more than 4194304 bytes to \{context\}/);
});

t.test("the token is redacted, and noted", async (t) => {
  const [e] = read((f) => writeFileSync(f.context, `{"text":"Bearer ${TOKEN}"}\n`));
  t.notMatch(e!.line!, new RegExp(TOKEN));
  t.same(e!.leaked, ["raw"]);
});

t.test("a link, a FIFO or a directory in a file's place is not followed, not waited on", async (t) => {
  const target = join(mkdtempSync(join(tmpdir(), "cgp-files-outside-")), "secret.txt");
  writeFileSync(target, '{"text":"outside"}\n');
  const linked = read((f) => {
    rmSync(f.context);
    symlinkSync(target, f.context);
  });
  t.match(linked.find((e) => e.note === "unreadable")?.reason, /\{context\} could not be read after the host ended \(ELOOP\)/);
  t.notOk(linked.some((e) => e.dir === "context"));
  const fifo = read((f) => {
    rmSync(f.usage);
    execFileSync("mkfifo", [f.usage]);
  });
  t.match(fifo.find((e) => e.note === "unreadable")?.reason, /\{usage\} could not be read .*it is no longer a plain file/);
  const gone = read((f) => rmSync(f.usage));
  t.match(gone.find((e) => e.note === "unreadable")?.reason, /ENOENT/);
});
