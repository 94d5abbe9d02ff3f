import { defineCheck, type Evidence } from "./kit/check.ts";
import { digestOfText, isDigest } from "../src/math/digest.ts";
import { exchanges, frameName, servedIn, unanswered, type ServedFrame } from "./kit/answers.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, KINDS_QUERY, REPRESENTATIONS_QUERY, SAMPLE_QUERY } from "../src/protocol/probes.ts";

const PROBES = [SAMPLE_QUERY, BUDGET_SQUEEZE, KINDS_QUERY, REPRESENTATIONS_QUERY];

/** Two contents, shown from where they part, so the difference is visible. */
function parting(a: unknown, b: unknown): string {
  const x = String(a);
  const y = String(b);
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  const at = Math.max(0, i - 10);
  return `from character ${i}: ${show(x.slice(at, at + 50))} vs ${show(y.slice(at, at + 50))}`;
}

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
        out.push({
          ok: false,
          message: `${frameName(f)} has content_digest ${show(d)}, not sha256:<64 lowercase hex>`,
          expected: "sha256:<64 lowercase hex>",
          actual: show(d),
          lines: [f.line],
        });
        continue;
      }
      out.push({ ok: true, message: "every content_digest is well-formed", lines: [f.line] });
      const key = JSON.stringify([f.frame.id, d]);
      byIdentity.set(key, [...(byIdentity.get(key) ?? []), f]);
      if (typeof f.frame.content === "string") {
        const actual = digestOfText(f.frame.content);
        out.push(
          actual === d
            ? { ok: true, message: "every content_digest is the SHA-256 of its frame's inline content", lines: [f.line] }
            : {
                ok: false,
                level: "NONE",
                message: `${frameName(f)} content_digest is not the SHA-256 of its inline content (§6.3)`,
                expected: actual,
                actual: String(d),
                lines: [f.line],
              },
        );
      }
    }
    for (const group of byIdentity.values()) {
      const contents = [...new Set(group.map((f) => JSON.stringify(f.frame.content)))];
      if (contents.length > 1) {
        out.push({
          ok: false,
          message: `frame ${show(group[0]!.frame.id)} with content_digest ${group[0]!.frame.content_digest} was served with ${contents.length} different contents (lines ${group.map((f) => f.line).join(", ")}): one identity, one content`,
          expected: "the same content bytes for the same (provider id, frame id, content_digest)",
          actual: parting(JSON.parse(contents[0]!) as unknown, JSON.parse(contents[1]!) as unknown),
          lines: group.map((f) => f.line),
        });
      }
    }
    if (out.length === 0) return { skip: "no served frame carries a content_digest" };
    return out;
  },
});
