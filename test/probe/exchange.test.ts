/**
 * The exchange ledger: every reply paired with the line it answers, by id
 * with correlation, by order in lock-step, and a reply that answers nothing
 * named for what it is.
 */
import t from "tap";
import { expectOf, Ledger } from "../../src/probe/exchange.ts";

const q = (id?: string) => JSON.stringify({ type: "query", ...(id ? { id } : {}), query: { goal: "g", kinds: [], anchors: [], max_frames: 1, max_tokens: 9 } });

t.test("what a line expects is read from the line", async (t) => {
  t.same(expectOf(q(), false), { types: ["frames", "error"], required: true });
  t.same(expectOf(q("a"), true), { types: ["frames", "error"], required: true, id: "a" });
  t.same(expectOf(q("a"), true, true), { types: ["frames", "error"], required: false, id: "a" }, "a stimulus that may go unanswered");
  t.same(expectOf('{"type":"verify","id":7,"request":{}}', true), { types: ["verified", "error"], required: true, id: 7 }, "an id of digits, as sent");
  t.same(expectOf('{"type":"handshake","protocol_version":"contextgraph/1.0"}', false), { types: ["handshake_ack", "error"], required: true });
  t.same(expectOf('{"type":"shutdown"}', false), { types: [], required: false });
  t.same(expectOf("this is not json {{", true), { types: ["error"], required: false });
  t.same(expectOf('{"type":"acme:notice"}', true), { types: [], required: false }, "§2: with no id, a notification: no reply expected");
  t.same(expectOf('{"type":"acme:notice"}', false), { types: ["error"], required: false }, "lock-step: an id-less unknown type may be a request, refused");
  t.same(expectOf('{"type":"acme:sub","id":"u"}', true), { types: ["error"], required: false, id: "u" });
  t.same(expectOf(`${q()}\r`, false), { types: ["frames", "error"], required: true }, "a CR before the LF is JSON whitespace");
  t.same(expectOf(Uint8Array.of(0xff), false), { types: ["error"], required: false });
  t.same(
    expectOf('{"id":"t","query":{}}', true),
    { types: ["error"], required: false, id: "t", loose: true },
    "no type: its id may be echoed, and need not be",
  );
});

t.test("with correlation, by id: any order, late, and a wrong one named", async (t) => {
  const l = new Ledger(true);
  l.sent(1, expectOf(q("a"), true));
  l.sent(2, expectOf(q("b"), true));
  t.same(l.pair("frames", "b"), { kind: "answers", seq: 2 }, "the later request answered first");
  t.same(l.pair("error", "a"), { kind: "answers", seq: 1 }, "the earlier one, late");
  t.same(l.pair("frames", "a"), { kind: "duplicate", seq: 1 }, "an id answered twice");
  l.sent(3, expectOf('{"type":"verify","id":"v","request":{"frames":[]}}', true));
  t.same(l.pair("frames", "v"), { kind: "wrong-type", seq: 3 }, "frames never answer a verify");
  t.same(l.open(), [3], "the verify still waits for its answer");
  t.same(l.pair("verified", "v"), { kind: "answers", seq: 3 });
  t.same(l.pair("frames", "nobody"), { kind: "unasked", after: 3 }, "an id no request carries, and nothing open to take it");
});

t.test("with correlation, a reply whose id was dropped is paired by order: an id-less line first, then a request that must be answered", async (t) => {
  const l = new Ledger(true);
  l.sent(1, expectOf("not json", true));
  l.sent(2, { ...expectOf(q("s"), true), chase: true });
  t.same(l.pair("error", undefined), { kind: "answers", seq: 1 }, "the error is the line's, not the chase's");
  t.same(l.pair("frames", undefined), { kind: "answers", seq: 2 });
  l.sent(3, expectOf('{"type":"verify","id":"w","request":{"frames":1}}', true, true));
  l.sent(4, expectOf('{"type":"verify","id":"v","request":{"frames":[]}}', true));
  t.same(l.pair("verified", undefined), { kind: "answers", seq: 4 }, "the verify a probe waits on, not the malformed one that may go unanswered");
  l.sent(5, expectOf('{"type":"acme:sub","id":"u"}', true, true));
  t.same(l.pair("error", undefined), { kind: "unasked", after: 5 }, "a line with an id that may go unanswered takes no reply without its id");
  t.same(l.pair("error", "u"), { kind: "answers", seq: 5 }, "so its own reply, late, is its answer, not a duplicate");
});

t.test("lock-step, by order: a chase takes only frames, an extra reply is attributed to the line it followed, an expired line takes nothing", async (t) => {
  const l = new Ledger(false);
  l.sent(1, expectOf('{"type":"acme:notice"}', false, true));
  l.sent(2, { ...expectOf(q(), false), chase: true });
  t.same(l.pair("error", undefined), { kind: "answers", seq: 1 }, "an error answers the line, never the chase");
  t.same(l.pair("frames", undefined), { kind: "answers", seq: 2 });
  t.same(l.pair("frames", undefined), { kind: "unasked", after: 1 }, "nothing asked for a third reply: it is the line's, not the chase's");
  l.sent(3, expectOf('{"type":"query"}', false, true));
  l.expire(3);
  l.sent(4, expectOf(q(), false));
  t.same(l.pair("frames", undefined), { kind: "answers", seq: 4 }, "the line past its deadline never takes the next request's answer");
  t.same(l.unanswered(), [3]);
});

t.test("a transport that pairs (HTTP) decides, whatever the reply says", async (t) => {
  const l = new Ledger(true);
  l.sent(1, expectOf(q("a"), true));
  t.same(l.pair("frames", "zzz", 1), { kind: "answers", seq: 1 });
  t.same(l.pair("frames", "a", 1), { kind: "duplicate", seq: 1 });
});

t.test("an object with no type but an id: its echoed id pairs it in any order, and an id-less reply may still be its", async (t) => {
  const l = new Ledger(true);
  l.sent(1, expectOf("not json", true));
  l.sent(2, expectOf('{"id":"t","query":{}}', true));
  t.same(l.pair("error", "t"), { kind: "answers", seq: 2 }, "by its id, though an id-less line is older");
  const m = new Ledger(true);
  m.sent(1, expectOf('{"id":"t","query":{}}', true));
  t.same(m.pair("error", undefined), { kind: "answers", seq: 1 }, "by order, without an id");
});

t.test("an id already answered that respells the waiting request's id answers that request, its id altered", async (t) => {
  const l = new Ledger(true);
  l.sent(1, expectOf(q("Q-\u00c4b"), true));
  t.same(l.pair("frames", "Q-\u00c4b"), { kind: "answers", seq: 1 });
  l.sent(2, expectOf(q("Q-A\u0308b"), true));
  t.same(l.pair("frames", "Q-\u00c4b"), { kind: "answers", seq: 2 }, "normalised: the waiting request's answer, for H4 to judge its id");
  t.same(l.pair("frames", "Q-\u00c4b"), { kind: "duplicate", seq: 1 }, "with nothing waiting that it respells, a duplicate");
});
