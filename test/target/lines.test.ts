import t from "tap";
import { LineSplitter } from "../../src/target/lines.ts";

const b = (s: string): Buffer => Buffer.from(s, "utf8");

t.test("splits lines across chunk boundaries", async (t) => {
  const s = new LineSplitter(1024);
  t.same(s.push(b('{"a":')), []);
  t.same(
    s.push(b('1}\n{"b"')).map((l) => l.text),
    ['{"a":1}'],
  );
  t.same(
    s.push(b(":2}\n\n")).map((l) => l.text),
    ['{"b":2}', ""],
  );
  t.equal(s.end(), undefined, "nothing left over");
});

t.test("keeps a multi-byte character split between chunks intact", async (t) => {
  const s = new LineSplitter(1024);
  const bytes = b("日本\n");
  t.same(s.push(bytes.subarray(0, 4)), []);
  const [line] = s.push(bytes.subarray(4));
  t.equal(line?.text, "日本");
  t.equal(line?.bytes, 6);
});

t.test("reports an over-long line when it crosses the cap, then resumes at the next newline", async (t) => {
  const s = new LineSplitter(10);
  const [long] = s.push(b("0123456789abc"));
  t.equal(long?.overLong, true, "reported at once: the newline may never come");
  t.equal(long?.bytes, 13, "the bytes seen when it crossed the cap");
  t.equal(long?.text, "0123456789abc", "a prefix of the line");
  t.same(s.push(b("def")), [], "the rest is discarded");
  t.same(s.push(b("ghi\nok\n")), [{ text: "ok", bytes: 2, overLong: false }], "and the next line is read whole");
});

t.test("keeps only a 4 KiB prefix of a huge line, with no newline needed", async (t) => {
  const s = new LineSplitter(8192);
  const [long] = s.push(Buffer.alloc(20000, 0x78));
  t.equal(long?.bytes, 20000);
  t.equal(long?.text.length, 4096);
  t.same(s.push(b("\n")), []);
  t.equal(s.end(), undefined);
});

t.test("returns an unterminated final line at end of stream", async (t) => {
  const s = new LineSplitter(1024);
  s.push(b("partial"));
  t.same(s.end(), { text: "partial", bytes: 7, overLong: false });
});
