#!/usr/bin/env bun
import { main } from "../src/cli/main.ts";
import { exitCode } from "../src/verdict/exit.ts";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`cgp-conform: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = exitCode("internal-error");
  },
);
