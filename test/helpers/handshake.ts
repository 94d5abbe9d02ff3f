/** Shared builders for the handshake checks (H1, H2). */
import { HANDSHAKE } from "../../src/protocol/probes.ts";
import { ACK, tx, type TranscriptBuilder } from "./transcript.ts";

/** Probe handshake answered with the honest ack, these members overridden. */
export const acked = (over: object) => (): TranscriptBuilder =>
  tx()
    .probe(HANDSHAKE.name)
    .handshake({ ...ACK, ...over });
