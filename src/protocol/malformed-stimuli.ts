/**
 * The stimuli of the malformed-input and malformed-bytes probes: each line
 * sent, why it is malformed (or, for CR LF, why it is not), and whether R1's
 * SHOULD reply binds it. src/protocol/probes.ts names the steps after them.
 */

/**
 * R1 stimuli, in order. Each is followed by a valid query that must still be
 * answered. `reply`: whether R1's SHOULD (reply bad_request) binds it, read
 * from R1 ("A provider MUST NOT crash on a malformed line or bad request. It
 * SHOULD reply error with code bad_request"), §2 ("Every message is a single
 * JSON object — an envelope"; "stdio: exactly one envelope per line,
 * newline-delimited (NDJSON)"; "An envelope with no id is a notification —
 * it expects no reply") and RFC 8259, the JSON those lines are written in.
 * An object with neither type nor id could be a notification, which §2 says
 * is ignored: it is sent, but no reply is expected. To a provider that
 * declares correlation, the request-shaped stimuli carry an id (so only one
 * reading fits, and H4 can judge the error) and a typeless request with an
 * id is added.
 */
export interface MalformedStimulus {
  step: string;
  what: string;
  /** A raw line (written as UTF-8), or an object sent as JSON (with `id` added for a correlating provider). */
  raw?: string;
  env?: Record<string, unknown>;
  id?: string;
  /** The exact bytes of a line that is not UTF-8. */
  bytes?: readonly number[];
  /** How the JSON of `env` is spelt on the wire, when not as JSON.stringify writes it (a raw control byte, a trailing CR). */
  spell?: (json: string) => string;
  reply: boolean;
  /**
   * A well-formed request a provider may serve: to a lock-step provider, the
   * probe awaits its answer before the valid query, so frames answering it
   * are never taken for that query's.
   */
  servable?: boolean;
  /** Not malformed at all: a valid query, to be answered as one (frames), never as a malformed line. */
  valid?: boolean;
  correlatedOnly?: boolean;
}

/** A query body any provider can serve, for the stimuli that spell one oddly. */
const BODY = { kinds: [], anchors: [], max_frames: 8, max_tokens: 2000 };

export const MALFORMED_STIMULI: readonly MalformedStimulus[] = [
  { step: "bad-garbage", what: "a line that is not JSON", raw: "this is not json {{", reply: true },
  { step: "bad-empty-object", what: "an empty JSON object (no type, no id: it may be a notification, so no reply is expected)", raw: "{}", reply: false },
  { step: "bad-array", what: "a JSON array", raw: "[]", reply: true },
  {
    step: "bad-typeless-request",
    what: "an object with an id but no type",
    env: { query: { goal: "no type" } },
    id: "bad-typeless",
    reply: true,
    correlatedOnly: true,
  },
  { step: "bad-query-no-body", what: "a query with no query member", env: { type: "query" }, id: "bad-no-body", reply: true },
  {
    step: "bad-query-wrong-types",
    what: "a query whose fields have the wrong types",
    env: { type: "query", query: { goal: 7, kinds: "doc", max_frames: "many" } },
    id: "bad-wrong-types",
    reply: true,
  },
];

/**
 * The stimuli of probe malformed-bytes, read as MALFORMED_STIMULI are: lines
 * whose bytes a line reader or a JSON parser may trip on. They run in a
 * process of their own, so a provider that dies on each of them (and on
 * every malformed line before) does not use up the fresh sessions that
 * malformed-input and the probes beside it may be resumed in. Invalid UTF-8
 * comes last: it ends the read loop of providers whose line reader decodes
 * strictly.
 */
export const BYTE_STIMULI: readonly MalformedStimulus[] = [
  // ASCII bytes in the JSON grammar, but no Unicode: RFC 8259 §8.2 leaves "the behavior of software that receives
  // JSON texts containing such values" open, so a conformant parser may take the goal as a string and serve it, or
  // refuse it. Served or refused as bad_request, both honest: survival binds, the SHOULD does not.
  {
    step: "bad-lone-surrogate",
    what: "a query whose goal is a lone surrogate escape (\\ud800: JSON's grammar, not Unicode)",
    env: { type: "query", query: { goal: "\ud800", ...BODY } },
    id: "bad-surrogate",
    reply: false,
    servable: true,
  },
  // "the control characters (U+0000 through U+001F)" MUST be escaped in a JSON string (RFC 8259 §7): the line is no
  // JSON text, so no envelope, a malformed line. Survival binds, and so does the SHOULD.
  {
    step: "bad-nul-byte",
    what: "a query with a raw NUL byte inside a string (no JSON: control characters are escaped)",
    env: { type: "query", query: { goal: "nul\u0000byte", ...BODY } },
    id: "bad-nul",
    spell: (json) => json.replace("\\u0000", "\u0000"),
    reply: true,
  },
  // A bare CR inside a string is a raw control character as well (§7): no JSON, a malformed line; a reader that
  // splits lines at CR sees two fragments, neither an envelope. Survival and the SHOULD bind.
  {
    step: "bad-bare-cr",
    what: "a query with a bare CR inside a string (no JSON; a reader splitting lines at CR sees two fragments)",
    env: { type: "query", query: { goal: "line one\rline two", ...BODY } },
    id: "bad-cr",
    spell: (json) => json.replace("\\r", "\r"),
    reply: true,
  },
  // A CR right before the LF is JSON whitespace (RFC 8259 §2: ws = %x20 / %x09 / %x0A / %x0D), so the line holds
  // exactly one envelope, a valid query: not malformed, and a bad_request would be the wrong answer. Survival binds
  // (to a reader that keeps the CR it is a malformed line, which it must survive too); answered as a query it
  // should be, though no keyword says so.
  {
    step: "bad-crlf",
    what: "a valid query ending in CR LF (CR is JSON whitespace: one envelope, a query)",
    env: { type: "query", query: { goal: "crlf", ...BODY } },
    id: "crlf",
    spell: (json) => `${json}\r`,
    reply: false,
    servable: true,
    valid: true,
  },
  // "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8"
  // (RFC 8259 §8.1): FF FE is no JSON text, so no envelope, a malformed line. Survival binds, and so does the SHOULD.
  { step: "bad-invalid-utf8", what: "a line of bytes that are not UTF-8", bytes: [0xff, 0xfe], reply: true },
];

/** The stimuli of a table a provider gets, and the exact line of each: text, or bytes when they are not UTF-8. */
export function malformedLines(
  correlated: boolean,
  table: readonly MalformedStimulus[] = MALFORMED_STIMULI,
): Array<MalformedStimulus & { line: string | Uint8Array }> {
  return table
    .filter((st) => correlated || !st.correlatedOnly)
    .map((st) => {
      if (st.bytes) return { ...st, line: Uint8Array.from(st.bytes) };
      const json = st.raw ?? JSON.stringify(correlated && st.id !== undefined ? { ...st.env!, id: st.id } : st.env);
      return { ...st, line: st.spell ? st.spell(json) : json };
    });
}
