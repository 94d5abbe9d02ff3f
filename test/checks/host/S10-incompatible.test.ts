import S10 from "../../../checks/host/S10-incompatible.ts";
import { handshake, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

const REFUSED = { type: "error", code: "incompatible_version", message: "this provider speaks contextgraph/2 only" };
/** The scenario up to the provider's refusal of the host's handshake. */
const refused = () => hostTx().scenario("incompatible-version").send(handshake()).answer(REFUSED);

runHostCases(S10, [
  {
    name: "the error reported, the provider let go",
    build: () => refused().print("stderr", "error incompatible_version: provider speaks contextgraph/2").end({ code: 1 }),
    status: "pass",
    codes: ["host:S10-incompatible.not-retried"],
    says: [
      /answered the host's handshake \(line 2\) with error code incompatible_version \(line 3\), and the host sent it no further handshake, query or verify/,
    ],
  },
  {
    name: "a shutdown after the error is no retry",
    build: () => refused().send(SHUTDOWN).end({ code: 1 }),
    status: "pass",
  },
  {
    name: "a hang after the error is not this check's (nothing more was sent)",
    build: () => refused().end({ hang: 1000 }),
    status: "pass",
  },
  {
    name: "the handshake sent again",
    build: () => refused().send(handshake()).answer(REFUSED).end({ code: 1 }),
    status: "fail",
    codes: ["host:S10-incompatible.retried"],
    says: [/yet the host sent "handshake" at line 4: a version-family mismatch is permanent and the provider unusable/],
    lines: [3, 4],
  },
  {
    name: "a new connection, a new handshake: still a retry",
    build: () => refused().note("eof").note("connected").send(handshake()).answer(REFUSED).end({ code: 1 }),
    status: "fail",
    codes: ["host:S10-incompatible.retried"],
  },
  {
    name: "a query sent to the provider all the same",
    build: () => refused().send(query()).send(SHUTDOWN).end({ code: 0 }),
    status: "fail",
    codes: ["host:S10-incompatible.retried"],
    says: [/yet the host sent "query" at line 4/],
  },
  {
    name: "every later envelope named, the first first",
    build: () => refused().send(handshake()).answer(REFUSED).send(query()).end({ code: 1 }),
    status: "fail",
    says: [/sent "handshake" at line 4 \(handshake, query at lines 4, 6\)/],
  },
  {
    name: "no handshake sent: skip",
    build: () => hostTx().scenario("incompatible-version").send(query()).end({ code: 1 }),
    status: "skip",
    says: [/the host sent no handshake, so incompatible_version could not answer one/],
  },
  {
    name: "the provider never refused: skip",
    build: () => hostTx().scenario("incompatible-version").send(handshake()).end({ code: 1 }),
    status: "skip",
    says: [/sent no incompatible_version after the host's handshake \(line 2\)/],
  },
]);
