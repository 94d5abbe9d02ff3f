/** Canned relations for the graph checks (G1, G2, G4). */
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../../src/protocol/probes.ts";
import { frame, frames, query, served, tx, type TranscriptBuilder } from "./transcript.ts";

export const rel = (over: Record<string, unknown> = {}) => ({
  rel: "code.calls",
  target_uri: "file:///repo/src/net.rs#retry",
  display_name: "net::retry",
  ...over,
});

/** served(): the sample-query frames are at line 9. */
export const relating =
  (...relations: object[]) =>
  (): TranscriptBuilder =>
    served([frame({ relations })]);

/** Relations served (sample-query, 2–5), then budget-squeeze's first query (line 8) never answered. */
export const relatedThenSilent = (): TranscriptBuilder =>
  tx()
    .probe(SAMPLE_QUERY.name)
    .handshake()
    .send(SAMPLE_QUERY.steps.sample, query("s1"))
    .recv(frames("s1", [frame({ relations: [rel()] })]))
    .probe(BUDGET_SQUEEZE.name)
    .handshake()
    .send(BUDGET_SQUEEZE.steps.generous, query("g1"))
    .note("timeout", { waitedMs: 800, expecting: "a reply" });

/** Every query the frame checks read got no answer: the provider served nothing at all. */
export const neverServed = (): TranscriptBuilder =>
  tx()
    .probe(SAMPLE_QUERY.name)
    .handshake()
    .send(SAMPLE_QUERY.steps.sample, query("s1"))
    .note("timeout", { waitedMs: 800, expecting: "a reply" })
    .probe(BUDGET_SQUEEZE.name)
    .handshake()
    .send(BUDGET_SQUEEZE.steps.generous, query("g1"))
    .note("eof")
    .note("exit", { exitCode: 1, signal: null });
