#!/usr/bin/env bun
import { VERSION } from "../src/meta/version.ts";

// `--version` needs nothing else: the CLI, its checks and its schemas are loaded only for a command that uses them.
// No top-level await: an exception the reference provider throws must end its process, as any uncaught one does.
const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === "--version") process.stdout.write(`${VERSION}\n`);
else
  void Promise.all([import("../src/cli/main.ts"), import("../src/verdict/exit.ts")]).then(([{ main }, { exitCode }]) =>
    main(argv).then(
      (code) => {
        process.exitCode = code;
      },
      (err: unknown) => {
        process.stderr.write(`cgp-conform: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
        process.exitCode = exitCode("internal-error");
      },
    ),
  );
