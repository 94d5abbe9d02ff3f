// A provider that cannot be started is named by its command as the user would type it again: each argument quoted
// where the shell would split or change it, a control character escaped, so the words stay one line and one reading.
import t from "tap";
import { StdioConnection } from "../../src/target/stdio.ts";

async function spawnError(command: string[]): Promise<string> {
  let said = "";
  const conn = new StdioConnection(
    { kind: "stdio", command },
    { maxLineBytes: 1024, maxStderrBytes: 1024 },
    {
      line() {},
      stderr() {},
      eof() {},
      exit() {},
      unreachable(_kind, message) {
        said = message;
      },
    },
  );
  await conn.done;
  return said;
}

t.test("a spawn error names the command with each argument as typed", async (t) => {
  t.equal(await spawnError(["/nonexistent/p", "plain-arg_1.x"]), "Command failed with ENOENT: /nonexistent/p plain-arg_1.x");
  t.equal(
    await spawnError(["/nonexistent/p", "a b", "it's", ""]),
    "Command failed with ENOENT: /nonexistent/p 'a b' 'it'\\''s' ''",
    "an argument holding a space, a quote or nothing is quoted",
  );
  t.equal(
    await spawnError(["/nonexistent/p", "x\ny\t\u0001"]),
    "Command failed with ENOENT: /nonexistent/p 'x\\ny\\t\\u0001'",
    "one line, control characters escaped",
  );
});
