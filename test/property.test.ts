/**
 * Property-based tests (fast-check), seeded and bounded in time: a failure
 * prints its seed and shrunk counterexample; keep it as a regression case
 * below the properties. CGP_PROPERTY_SEED overrides the seed.
 */
import t from "tap";
import fc from "fast-check";
import { CHECKS } from "../checks/index.ts";
import { score } from "../src/engine/score.ts";
import { validateText } from "../src/schema/validate.ts";
import { FRAGMENT, redact, registerSecret } from "../src/secret/redact.ts";
import { LineSplitter } from "../src/target/lines.ts";
import { fromNdjson, toNdjson, TranscriptFormatError } from "../src/transcript/file.ts";
import type { Transcript } from "../src/transcript/types.ts";
import { served } from "./helpers/transcript.ts";
import { verifyOffline } from "../src/attest/offline.ts";
import { providerFor } from "../misbehave/apply.ts";

const SEED = Number(process.env.CGP_PROPERTY_SEED ?? 20261201);
const budget = (numRuns: number) => ({ seed: SEED, numRuns, interruptAfterTimeLimit: 4000, markInterruptAsFailure: false });

t.test("the line splitter yields the same lines however the bytes are chunked, and never holds more than its cap", async () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), fc.array(fc.nat({ max: 400 }), { maxLength: 8 }), fc.integer({ min: 1, max: 64 }), (bytes, cuts, cap) => {
      const whole = new LineSplitter(cap);
      const a = [...whole.push(Buffer.from(bytes)), ...[whole.end()].filter((x) => x !== undefined)];
      const split = new LineSplitter(cap);
      const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
      const b: typeof a = [];
      let at = 0;
      for (const p of [...points, bytes.length]) {
        b.push(...split.push(Buffer.from(bytes.subarray(at, p))));
        at = p;
      }
      const last = split.end();
      if (last) b.push(last);
      // An over-long line is reported when it crosses the cap, with the bytes read so far: that count depends on the chunks.
      const shape = (ls: typeof a) => JSON.stringify(ls.map((l) => (l.overLong ? "over" : [l.text, l.bytes])));
      return shape(a) === shape(b) && a.every((l) => l.overLong || l.bytes <= cap);
    }),
    budget(300),
  );
});

/** Ways an output can carry a secret: as a provider echoes it, as a renderer escapes it, as a quote cuts it. */
const transforms: Array<[string, (s: string) => string]> = [
  ["verbatim", (s) => s],
  ["\\u-escaped", (s) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")],
  ["half \\u-escaped", (s) => [...s].map((c, i) => (i % 2 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0").toUpperCase()}` : c)).join("")],
  ["markdown-escaped", (s) => s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&")],
  ["percent-encoded", (s) => encodeURIComponent(s)],
  ["JSON in JSON", (s) => JSON.stringify(JSON.stringify(s)).slice(1, -1)],
  ["HTML entities", (s) => [...s].map((c) => `&#${c.charCodeAt(0)};`).join("")],
  ["cut", (s) => `${s.slice(0, FRAGMENT + 1)}…`],
  ["tail", (s) => `…${s.slice(-FRAGMENT)}`],
];

t.test("redaction: no output holds a secret or a fragment of it, whatever form the echo took", async (t) => {
  const secretArb = fc.string({
    unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/="),
    minLength: FRAGMENT + 2,
    maxLength: 48,
  });
  fc.assert(
    fc.property(
      secretArb,
      fc.constantFrom(...transforms),
      fc.string({ maxLength: 40 }),
      fc.string({ maxLength: 40 }),
      (secret, [, transform], before, after) => {
        registerSecret(secret);
        const out = redact(`${before}${transform(secret)}${after}`);
        // Undo every form the transforms use, then look for any FRAGMENT-character window of the secret.
        const decoded = out
          .replace(/\\+u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
          .replace(/&#(\d+);/g, (_m, d: string) => String.fromCharCode(Number(d)))
          .replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
          .replace(/\\+(.)/g, "$1");
        for (let i = 0; i + FRAGMENT <= secret.length; i++) {
          const w = secret.slice(i, i + FRAGMENT);
          if (out.includes(w) || decoded.includes(w)) return false;
        }
        return true;
      },
    ),
    budget(400),
  );
});

/** A small transcript of real shape, mutated below. */
function base(): Transcript {
  return served([
    { id: "a", kind: "doc", title: "t", content: "abcd", score: 0.5, token_cost: 1, recorded_at: "2026-07-20T18:00:00Z", citation_label: "c" },
  ]).build();
}

t.test("every check scores a mutated transcript without throwing, with bounded evidence", async (t) => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(), fc.oneof(fc.json({ depthSize: "small" }), fc.string({ maxLength: 60 }))), { maxLength: 6 }), (edits) => {
      const tr = base();
      for (const [at, text] of edits) {
        const e = tr.events[at % tr.events.length]!;
        if (e.line !== undefined) e.line = text;
      }
      const results = score(tr, CHECKS);
      return results.length === CHECKS.length && results.every((r) => r.evidence.length < 1000);
    }),
    budget(60),
  );
});

t.test("a mutated transcript file reads, or is refused as malformed: nothing else", async (t) => {
  const text = toNdjson(base());
  fc.assert(
    fc.property(fc.nat({ max: text.length }), fc.nat({ max: 40 }), fc.string({ maxLength: 20 }), (at, drop, insert) => {
      const mutated = text.slice(0, at) + insert + text.slice(Math.min(text.length, at + drop));
      try {
        const tr = fromNdjson(mutated);
        score(tr, CHECKS);
        return true;
      } catch (e) {
        return e instanceof TranscriptFormatError;
      }
    }),
    budget(200),
  );
});

t.test("validate never throws on arbitrary text", async (t) => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.json()), (text) => Array.isArray(validateText(text, "interop"))),
    budget(200),
  );
});

t.test("attest verify reads a mutated signed answer, or refuses it with an ordinary error: never a crash", async (t) => {
  const p = providerFor(undefined, "/srv/cgp", true);
  const answer = JSON.stringify(p.onQuery({ type: "query", id: "q", query: { goal: "g", kinds: [], anchors: [], max_frames: 3, max_tokens: 100000 } })[0]);
  t.ok(verifyOffline(answer).length > 0, "the unmutated answer has attestations to verify");
  fc.assert(
    fc.property(
      fc.nat({ max: answer.length }),
      fc.nat({ max: 30 }),
      fc.oneof(fc.string({ maxLength: 12 }), fc.constant("[".repeat(5000))),
      (at, drop, insert) => {
        const mutated = answer.slice(0, at) + insert + answer.slice(Math.min(answer.length, at + drop));
        try {
          return Array.isArray(verifyOffline(mutated));
        } catch (e) {
          // The CLI turns an ordinary error into a usage error (exit 2); a stack overflow or a non-Error would be a crash.
          return e instanceof Error && !(e instanceof RangeError && /call stack/.test(e.message));
        }
      },
    ),
    budget(200),
  );
});
