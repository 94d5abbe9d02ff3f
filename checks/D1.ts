import { defineCheck, type Evidence } from "./kit/check.ts";
import { digestOfText, isDigest } from "../src/math/digest.ts";
import { exchanges, frameAt, framed, servedIn, unanswered, type FrameAt, type ServedFrame } from "./kit/answers.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, KINDS_QUERY, REPRESENTATIONS_QUERY, SAMPLE_QUERY } from "../src/protocol/probes.ts";

const PROBES = [SAMPLE_QUERY, BUDGET_SQUEEZE, KINDS_QUERY, REPRESENTATIONS_QUERY];

/** Two contents, from where they part (the character they first differ at, and 50 characters of each from a little before it), so the difference is visible. */
type Parting = { from: number; one: string; other: string };

function parting(a: unknown, b: unknown): Parting {
  const x = String(a);
  const y = String(b);
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  const at = Math.max(0, i - 10);
  return { from: i, one: x.slice(at, at + 50), other: y.slice(at, at + 50) };
}

type Unstable = { id: Param; digest: Param; contents: number; lines: number[]; parting: Parting };

const F = findings({
  "well-formed": { ok: true, says: () => "every content_digest is well-formed" },
  malformed: {
    says: (p: { frame: FrameAt; digest: Param }) => `${framed(p.frame)} has content_digest ${show(p.digest)}, not sha256:<64 lowercase hex>`,
    expected: () => "sha256:<64 lowercase hex>",
    actual: (p: { digest: Param }) => show(p.digest),
  },
  "digest-of-content": { ok: true, says: () => "every content_digest is the SHA-256 of its frame's inline content" },
  "not-digest-of-content": {
    cites: "content_digest is the provider-declared SHA-256 over the frame's exact inline content bytes",
    level: "NONE",
    says: (p: { frame: FrameAt; digest: string; computed: string }) => `${framed(p.frame)} content_digest is not the SHA-256 of its inline content (§6.3)`,
    expected: (p: { computed: string }) => p.computed,
    actual: (p: { digest: string }) => p.digest,
  },
  "unstable-content": {
    says: (p: Unstable) =>
      `frame ${show(p.id)} with content_digest ${p.digest} was served with ${p.contents} different contents (lines ${p.lines.join(", ")}): one identity, one content`,
    expected: () => "the same content bytes for the same (provider id, frame id, content_digest)",
    actual: (p: Unstable) => `from character ${p.parting.from}: ${show(p.parting.one)} vs ${show(p.parting.other)}`,
  },
});

/**
 * @anchor D1
 * Stimulus: every frame served to probes sample-query, budget-squeeze,
 * kinds-query and representations. Also held here:
 * context-reuse §1, "Two frames with the same identity MUST have the same
 * content bytes", and §6.3's claim that content_digest is "the
 * provider-declared SHA-256 over the frame's exact inline content bytes"
 * (the spec also calls it opaque, so a mismatch is a warning).
 */
export default defineCheck({
  findings: F.table,
  id: "D1",
  title: "content_digest is well-formed and names one content",
  level: "MUST",
  requirement: "content_digest, when present, MUST match sha256:<64 lowercase hex>.",
  probes: PROBES,
  score({ probe }) {
    const views = PROBES.map(probe);
    const xs = exchanges(views);
    // "when present": null reads as absent, as everywhere on the wire.
    const frames = servedIn(views).filter((f) => f.frame.content_digest !== undefined && f.frame.content_digest !== null);
    const out: Evidence[] = unanswered(xs, views, { judged: frames.length > 0 });
    const byIdentity = new Map<string, ServedFrame[]>();
    for (const f of frames) {
      const d = f.frame.content_digest;
      if (!isDigest(d)) {
        out.push(F.say("malformed", { frame: frameAt(f), digest: d as Param }, { lines: [f.line] }));
        continue;
      }
      out.push(F.say("well-formed", {}, { lines: [f.line] }));
      const key = JSON.stringify([f.frame.id, d]);
      byIdentity.set(key, [...(byIdentity.get(key) ?? []), f]);
      if (typeof f.frame.content === "string") {
        const actual = digestOfText(f.frame.content);
        out.push(
          actual === d
            ? F.say("digest-of-content", {}, { lines: [f.line] })
            : F.say("not-digest-of-content", { frame: frameAt(f), digest: String(d), computed: actual }, { lines: [f.line] }),
        );
      }
    }
    for (const group of byIdentity.values()) {
      const contents = [...new Set(group.map((f) => JSON.stringify(f.frame.content)))];
      if (contents.length > 1) {
        const first = group[0]!.frame;
        const lines = group.map((f) => f.line);
        const p = {
          id: (first.id ?? null) as Param,
          digest: first.content_digest as Param,
          contents: contents.length,
          lines,
          parting: parting(JSON.parse(contents[0]!) as unknown, JSON.parse(contents[1]!) as unknown),
        };
        out.push(F.say("unstable-content", p, { lines }));
      }
    }
    if (out.length === 0) return { skip: "no served frame carries a content_digest" };
    return out;
  },
});
