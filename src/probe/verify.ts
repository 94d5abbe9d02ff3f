import { isDigest } from "../math/digest.ts";
import { digestOfText } from "../math/digest.ts";
import { capabilities, providerName } from "../protocol/caps.ts";
import { defineProbe, query } from "./probe.ts";
import { framesIn, type Obj } from "../protocol/envelope.ts";
import { NEVER_SERVED_ID, VERIFY } from "../protocol/probes.ts";

/** Change one hex digit of a well-formed digest, keeping it well-formed. */
export function mutate(digest: string): string {
  const last = digest[digest.length - 1]!;
  return digest.slice(0, -1) + (last === "0" ? "1" : "0");
}

/** The identities (§6.3) of frames served, those carrying a content_digest only (V1's SHOULD). */
export function identities(provider: string, frames: Obj[]): Obj[] {
  return frames
    .filter((f) => typeof f.id === "string" && isDigest(f.content_digest))
    .map((f) => ({ provider_id: provider, frame_id: f.id, content_digest: f.content_digest }));
}

/** A frame id with the case of its letters flipped, if that changes it. */
export function flipCase(id: string): string | undefined {
  const flipped = [...id].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
  return flipped === id ? undefined : flipped;
}

/**
 * V2–V4: verify what was just served (expect valid), the same identities
 * with each digest mutated by one hex digit (stale for a frame it still
 * serves, never valid; a stale verdict's replacement_digest is the digest
 * just served), then the same query again (what it serves after both: a frame
 * served again with a digest it called stale or gone held still), an identity never served (anything but valid, or no
 * verdict), the served ids with their case flipped (no sentence says ids
 * compare exactly: valid only for a frame it confirmed, by the digest it
 * serves), and the served ids without a digest.
 */
export default defineProbe({
  ...VERIFY,
  async run(s, ctx) {
    const name = providerName(ctx.ack);
    // An identity's provider_id is the declared provider.name (§6.5.2): without one there is no identity to send.
    if (capabilities(ctx.ack).verify !== true || !name) return;
    s.send(VERIFY.steps.served, query(ctx, "verify-q", {}));
    const ids = identities(name, framesIn(await s.reply()));
    if (ids.length === 0) return;
    const verify = (id: string, frames: Obj[]): Obj => ({ type: "verify", ...(ctx.correlation ? { id } : {}), request: { frames } });
    // A flipped id that is itself a served id names a real frame: it proves nothing about exact comparison.
    const served = new Set(ids.map((i) => i.frame_id));
    const flipped = ids.flatMap((i) => {
      const f = flipCase(i.frame_id as string);
      return f === undefined || served.has(f) ? [] : [{ ...i, frame_id: f }];
    });
    const steps: Array<[string, Obj[], string]> = [
      [VERIFY.steps.verifyServed, ids, "identities served moments ago: valid"],
      [
        VERIFY.steps.verifyMutated,
        ids.map((i) => ({ ...i, content_digest: mutate(i.content_digest as string) })),
        "each digest off by one hex digit: stale for a frame it still serves, never valid",
      ],
      [
        VERIFY.steps.verifyNeverServed,
        [{ provider_id: name, frame_id: NEVER_SERVED_ID, content_digest: digestOfText(NEVER_SERVED_ID) }],
        "an identity never served: anything but valid",
      ],
      ...(flipped.length > 0 && ctx.depth !== "quick"
        ? [
            [VERIFY.steps.verifyCase, flipped, "served ids with their case flipped: valid only for a frame it confirmed, by the digest it serves"] as [
              string,
              Obj[],
              string,
            ],
          ]
        : []),
      ...(ctx.depth !== "quick"
        ? [
            [VERIFY.steps.verifyDigestless, ids.map(({ content_digest: _d, ...i }) => i), "served ids without a content_digest: one verdict each"] as [
              string,
              Obj[],
              string,
            ],
          ]
        : []),
    ];
    for (const [step, frames, why] of steps) {
      s.send(step, verify(step, frames), { rules: ["V2", "V3", "V4"], why });
      if (!(await s.reply()) && s.stalled) return;
      // The same query again, after the verify of what it served and of those digests changed: a frame served again with
      // the digest a stale or gone verdict was given for shows the bytes held still; one served again at all, that it
      // still served that frame when its changed digest was verified.
      if (step === VERIFY.steps.verifyMutated) {
        s.send(VERIFY.steps.servedAgain, query(ctx, "verify-q-again", {}), { rules: ["V2"], why: "the query of served, again: what it serves now" });
        if (!(await s.reply()) && s.stalled) return;
      }
    }
  },
});
