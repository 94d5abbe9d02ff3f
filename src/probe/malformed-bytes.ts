import { defineProbe } from "./probe.ts";
import { sendMalformed } from "./malformed-input.ts";
import { BYTE_STIMULI, MALFORMED_BYTES } from "../protocol/probes.ts";

export default defineProbe({
  ...MALFORMED_BYTES,
  run: (s, ctx) => sendMalformed(s, ctx, MALFORMED_BYTES, BYTE_STIMULI),
});
