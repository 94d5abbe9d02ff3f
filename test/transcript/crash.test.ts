import t from "tap";
import { culpritIn, lastError } from "../../src/transcript/crash.ts";
import type { TranscriptEvent } from "../../src/transcript/types.ts";

let n = 1;
const ev = (e: Partial<TranscriptEvent>): TranscriptEvent => ({
  n: ++n,
  probe: "malformed-input",
  session: "malformed",
  t: 0,
  dir: "note",
  step: "start",
  ...e,
});
const send = (step: string) => ev({ dir: "send", step, line: "{}" });
const recv = (step: string) => ev({ dir: "recv", step, line: '{"type":"error","code":"bad_request"}' });

t.test("the stimulus is blamed, unless it was answered: then the valid query chasing it is", async (t) => {
  const unanswered = [send("handshake"), recv("handshake"), send("bad-garbage"), send("after-bad-garbage")];
  t.equal(culpritIn(unanswered)?.step, "bad-garbage", "no reply after the bad line: it killed the provider");
  const answered = [send("handshake"), recv("handshake"), send("bad-garbage"), send("after-bad-garbage"), recv("bad-garbage")];
  t.equal(culpritIn(answered)?.step, "after-bad-garbage", "the bad line was answered: the provider died on the valid query");
  t.equal(culpritIn([send("handshake")]), undefined, "the handshake is never blamed (a stall there is no stimulus to pass over)");
  t.equal(
    culpritIn([send("handshake"), recv("handshake"), send("after-bad-empty-object")])?.step,
    "after-bad-empty-object",
    "a chase alone (its stimulus passed over) is blamed itself",
  );
});

t.test("the error line is read from stderr whole, however it was written in pieces", async (t) => {
  const pieces = [
    ev({ dir: "stderr", text: 'Traceback (most recent call last):\n  File "p.py", line 9' }),
    ev({ dir: "stderr", text: ", in handle\n    index[kind]\nRuntimeErr" }),
    ev({ dir: "stderr", text: "or: KeyError in symbol index\n" }),
  ];
  const end = ev({ note: "exit", exitCode: 1, signal: null });
  const said = lastError([...pieces, end], end);
  t.equal(said?.line, "RuntimeError: KeyError in symbol index");
  t.equal(said?.quoted, JSON.stringify("RuntimeError: KeyError in symbol index"));
  t.equal(said?.n, pieces[2]!.n, "cited at the chunk that ended the line");
});
