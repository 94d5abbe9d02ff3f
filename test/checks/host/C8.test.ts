import C8 from "../../../checks/host/C8.ts";
import { hostTx, runHostCases, handshake, SHUTDOWN } from "../../helpers/host-transcript.ts";

runHostCases(C8, [
  {
    name: "over HTTP, the token used and never printed",
    build: () =>
      hostTx("http").scenario("bearer-token").honest().print("stderr", "connected to provider").scenario("lock-step").honest().print("stdout", "3 frames"),
    status: "pass",
    says: [/across 2 scenarios \(the token carried in lock-step, bearer-token\) the host printed 2 lines, and none holds the run's bearer token/],
  },
  {
    name: "the token in a log line, base64",
    build: () => hostTx("http").scenario("bearer-token").handshake().print("stderr", "debug: Authorization: Basic [redacted]", ["base64"]).send(SHUTDOWN).end(),
    status: "fail",
    codes: ["host:C8.token-printed"],
    says: [/scenario bearer-token, line 4: the host's stderr carries the run's bearer token \(as base64\); a host MUST NOT log a credential/],
    never: [/Authorization/, /redacted/],
    lines: [4],
  },
  {
    name: "the token raw on stdout, in another scenario",
    build: () =>
      hostTx("http").scenario("bearer-token").honest().scenario("error-internal").handshake().print("stdout", "token=[redacted]", ["raw"]).end({ code: 1 }),
    status: "fail",
    codes: ["host:C8.token-printed"],
    says: [/scenario error-internal, line 10: the host's stdout carries the run's bearer token \(as raw\)/],
    lines: [10],
  },
  {
    name: "over stdio there is no bearer token",
    build: () => hostTx().scenario("lock-step").honest().scenario("bearer-token", { skipped: "it needs the HTTP binding" }),
    status: "skip",
    says: [/the host reached its providers over stdio: C8 binds a bearer token used to reach a provider over HTTP; run again with \{url\}/],
  },
  {
    name: "over HTTP, the token never used",
    build: () =>
      hostTx("http").scenario("lock-step").send(handshake(), { auth: "none" }).answer({ type: "error", code: "bad_request", message: "401" }).end({ code: 1 }),
    status: "skip",
    says: [/the host never used the run's bearer token/],
  },
]);
