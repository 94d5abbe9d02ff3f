import { defineMode } from "./mode.ts";

/** Breaks R2: "A provider MUST tear down cleanly on shutdown." */
export default defineMode({
  name: "R2-ignore-shutdown",
  defect: "ignores shutdown and keeps running",
  expectFail: ["R2"],
  finding: "R2.still-running",
  stdioOnly: "an exit after shutdown is a stdio notion",
  apply: () => ({
    onShutdown: () => null,
  }),
});
