import H3 from "../../../checks/host/H3.ts";
import { ACK, error, handshake, hostTx, query, runHostCases } from "../../helpers/host-transcript.ts";

const WRONG = { ...ACK, protocol_version: "contextgraph/2.0" };
const wrong = () => hostTx().scenario("wrong-family").handshake(WRONG);

runHostCases(H3, [
  {
    name: "refused with a named error and a nonzero exit",
    build: () => wrong().print("stderr", "error: incompatible_version: the provider speaks contextgraph/2, this host contextgraph/1").end({ code: 1 }),
    status: "pass",
    says: [
      /after a handshake_ack of "contextgraph\/2.0" \(line 3\) answering the host's "contextgraph\/1.0" \(line 2\), the host sent no query or verify/,
      /its stderr names the mismatch at line 4/,
    ],
  },
  {
    name: "named by the ack's version string alone",
    build: () => wrong().print("stdout", "unsupported provider at contextgraph/2.0").end({ code: 3 }),
    status: "pass",
    says: [/its stdout names the mismatch at line 4/],
  },
  {
    name: "went on to query after the mismatch",
    build: () =>
      wrong()
        .send(query())
        .answer({ type: "frames", result: { frames: [] } })
        .end({ code: 0 }),
    status: "fail",
    codes: ["host:H3.went-on"],
    says: [
      /the host went on to send "query" at line 4 after a handshake_ack of "contextgraph\/2.0" \(line 3\).*of family contextgraph\/2, and nothing it printed names the mismatch; a mismatch must be reported as a named error/,
    ],
    lines: [4],
  },
  {
    name: "named the mismatch, then queried all the same: a warning",
    build: () =>
      wrong()
        .print("stderr", "warning: incompatible_version, trying anyway")
        .send(query())
        .answer({ type: "frames", result: { frames: [] } })
        .end({ code: 0 }),
    status: "warn",
    codes: ["host:H3.went-on-named"],
    strict: "warn",
    says: [/the host named the mismatch \(its stderr, line 4\) yet went on to send "query" at line 5/],
  },
  {
    name: "left to hang",
    build: () => wrong().end({ hang: 10000 }),
    status: "fail",
    codes: ["host:H3.hung"],
    says: [/the host did not end within 10000 ms and was killed \(line 4\): a mismatch must be reported as a named error, never left to hang/],
    lines: [4],
  },
  {
    name: "exit 0 and nothing printed: the error could not be seen",
    build: () => wrong().end({ code: 0 }),
    status: "warn",
    codes: ["host:H3.exit-zero-unnamed"],
    strict: "warn",
    says: [/exited with status 0 \(line 4\) and nothing it printed names the mismatch: the named error could not be seen/],
    lines: [3],
  },
  {
    name: "a nonzero exit that names nothing: a warning (the refusal shows, its name does not), never a failure",
    build: () => wrong().print("stderr", "fatal: giving up").end({ code: 1 }),
    status: "warn",
    strict: "warn",
    codes: ["host:H3.unnamed"],
    says: [/the host sent no query or verify/, /exited with status 1 \(line 5\), but nothing it printed names the mismatch/],
    lines: [3],
  },
  {
    name: "a crash is not a named error",
    build: () => wrong().end({ signal: "SIGABRT" }),
    status: "warn",
    codes: ["host:H3.crash-unnamed"],
    strict: "warn",
    says: [/was ended by SIGABRT \(line 4\) and nothing it printed names the mismatch: a crash is not a named error/],
  },
  {
    name: "no handshake_ack was sent",
    build: () => hostTx().scenario("wrong-family").send(handshake()).answer(error("incompatible_version")).end({ code: 1 }),
    status: "skip",
    says: [/sent no handshake_ack after the host's handshake \(line 2\)/],
  },
  {
    name: "the host's own version names no family",
    build: () => hostTx().scenario("wrong-family").handshake(WRONG, "1.0").end({ code: 0 }),
    status: "skip",
    says: [/the host's handshake version "1.0" \(line 2\) follows no grammar/],
  },
  {
    name: "an ack in the host's own family offers no mismatch",
    build: () => hostTx().scenario("wrong-family").handshake(ACK).end({ code: 0 }),
    status: "skip",
    says: [/shares the host's family contextgraph\/1/],
  },
  {
    name: "no handshake at all",
    build: () => hostTx().scenario("wrong-family").send(query()).end({ code: 1 }),
    status: "skip",
    says: [/the host sent no handshake/],
  },
]);
