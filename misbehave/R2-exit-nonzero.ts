import { defineMode } from "./mode.ts";

/** Breaks R2: a clean teardown exits with status 0. */
export default defineMode({
  name: "R2-exit-nonzero",
  defect: "exits with status 3 on shutdown",
  expectFail: ["R2"],
  finding: { code: "R2.unclean-exit", params: { exit_code: 3 } },
  stdioOnly: "an exit status after shutdown is a stdio notion",
  apply: () => ({
    onShutdown: () => 3,
  }),
});
