import { defineProbe, query } from "./probe.ts";
import { SAMPLE_QUERY } from "../protocol/probes.ts";
import { provenanceUrisIn } from "./provenance-files.ts";

/**
 * One query with a generous budget: the provider's frames as it serves them.
 * Then, where a check asks for it (F5), the files their file provenance names
 * are digested: budget-squeeze sends the same query next, and provenance-files
 * reads the files again once the sessions end, so a file read the same before
 * and after that re-query is shown to have held still under it.
 */
export default defineProbe({
  ...SAMPLE_QUERY,
  async run(s, ctx) {
    s.send(SAMPLE_QUERY.steps.sample, query(ctx, "sample-1", {}));
    const env = await s.reply();
    const uris = env?.type === "frames" ? provenanceUrisIn(env) : [];
    if (ctx.digestFiles && uris.length > 0) s.files(SAMPLE_QUERY.steps.filesBefore, ctx.digestFiles(uris));
  },
});
