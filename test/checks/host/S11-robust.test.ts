import S11 from "../../../checks/host/S11-robust.ts";
import { hostTx, query, runHostCases, SHUTDOWN, type Ending } from "../../helpers/host-transcript.ts";

const HALF = '{"type":"frames","result":{"frames":[{"id":"fixture:retry-doc","kind":"doc","content":"Retry beh';
const crash = (end: Ending = { code: 1 }) =>
  hostTx().scenario("crash-mid-query").handshake().send(query()).answer(HALF).note("provider-exit", { exitCode: 1 }).end(end);
const stall = (end: Ending = { code: 1 }) => hostTx().scenario("stops-answering").handshake().send(query()).note("withheld").end(end);

runHostCases(S11, [
  {
    name: "ends on its own after both faults",
    build: () => {
      const b = crash();
      b.scenario("stops-answering").handshake().send(query()).note("withheld").print("stderr", "provider timed out").end({ code: 1 });
      return b;
    },
    status: "pass",
    says: [
      /scenario crash-mid-query: after its provider crashed mid-query \(line 6\), the host ended on its own: it exited with status 1 \(line 7\)/,
      /scenario stops-answering: after its provider stopped answering \(line 11\)/,
    ],
  },
  {
    name: "not ended within the scenario's bound: the bound in words, no claim that it would never end",
    build: () => stall({ hang: 45000 }),
    status: "info",
    codes: ["host:S11-robust.not-ended"],
    says: [
      /scenario stops-answering: its provider stopped answering \(line 5\), and the host did not end within 45000 ms, this scenario's bound, and was killed \(line 6\): the reference host \(§11\.1, informative\) bounds every read/,
      /a deadline longer than 45000 ms would not show here \(a larger --fault-timeout raises it \(the bound is the larger of --timeout and --fault-timeout\)\)/,
    ],
    never: [/no deadline/, /never end/, /--timeout raises/],
    lines: [5, 6],
  },
  {
    name: "killed after giving up on the first answer and sending another query: what the transcript shows",
    // As a host of two calls that gives each answer 30 s: the second query still waiting when the 45 s bound ran out.
    build: () => hostTx().scenario("stops-answering").handshake().send(query()).note("withheld").wait(30000).send(query()).wait(15000).end({ hang: 45000 }),
    status: "info",
    codes: ["host:S11-robust.waits-outlast-bound"],
    says: [
      /scenario stops-answering: its provider stopped answering \(line 5\); the host gave up on that answer on its own and went on: 30010 ms after its query \(line 4\) it sent another \(line 6\), but it did not end within 45000 ms, this scenario's bound, and was killed \(line 7\), 15005 ms after its last query \(line 6\)/,
      /its waits together outlast the bound; a larger --fault-timeout raises it/,
    ],
    never: [/cannot be told/, /a deadline longer than/, /--timeout raises/],
    lines: [5, 4, 6, 7],
  },
  {
    name: "the host crashes with its provider",
    build: () => crash({ signal: "SIGSEGV" }),
    status: "info",
    codes: ["host:S11-robust.crashed"],
    says: [
      /after its provider crashed mid-query \(line 6\), the host itself crashed: it was ended by SIGSEGV \(line 7\), where the reference host \(§11\.1, informative\) surfaces/,
    ],
    lines: [6, 7],
  },
  {
    name: "neither fault reached the host",
    build: () => hostTx().scenario("crash-mid-query").handshake().send(SHUTDOWN).end().scenario("stops-answering").handshake().send(SHUTDOWN).end(),
    status: "skip",
  },
]);
