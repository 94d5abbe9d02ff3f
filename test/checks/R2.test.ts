import R2 from "../../checks/R2.ts";
import { SHUTDOWN } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { tx, type TranscriptBuilder } from "../helpers/transcript.ts";

const shutdown = { type: "shutdown" };
const shut = (after: (b: TranscriptBuilder) => TranscriptBuilder) => () => after(tx().probe(SHUTDOWN.name).handshake().send(SHUTDOWN.steps.shutdown, shutdown));

runCases(R2, [
  {
    name: "exits 0",
    build: shut((b) => b.note("eof").note("exit", { exitCode: 0, signal: null })),
    status: "pass",
    codes: ["R2.clean-exit"],
    says: [/exited with status 0/],
  },
  { name: "exits 3", build: shut((b) => b.note("exit", { exitCode: 3, signal: null })), status: "fail", codes: ["R2.unclean-exit"], says: [/exit status 3/] },
  {
    name: "dies by a signal",
    build: shut((b) => b.note("exit", { exitCode: null, signal: "SIGSEGV" })),
    status: "fail",
    codes: ["R2.unclean-exit"],
    says: [/signal SIGSEGV/],
  },
  {
    name: "has to be killed",
    build: shut((b) =>
      b
        .note("killed", { reason: "the provider had not exited 1000 ms after shutdown" })
        .note("exit", { exitCode: null, signal: "SIGKILL", reason: "killed by cgp-conform" }),
    ),
    status: "fail",
    codes: ["R2.still-running"],
    says: [/still running after shutdown \(the provider had not exited 1000 ms after shutdown\), so cgp-conform killed it/],
  },
  {
    // A provider that treats its first request as its whole job: it acks the handshake and is gone before shutdown arrives.
    name: "exits on its own before shutdown is sent",
    build: () => tx().probe(SHUTDOWN.name).handshake().note("eof").note("exit", { exitCode: 0, signal: null }).send(SHUTDOWN.steps.shutdown, shutdown),
    status: "fail",
    codes: ["R2.exited-early"],
    says: [/the provider exited before shutdown was sent \| the provider exits by itself with status 0 \| exit code 0, signal null/],
  },
]);
