import U1 from "../../../checks/host/U1.ts";
import { ACK, hostTx, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";
import { turns } from "../../helpers/compose.ts";

const EXT = { cgp_conform_extension: { since: "1.9" } };
const ODD = { ...ACK, ...EXT, provider: { ...ACK.provider, ...EXT }, capabilities: { ...ACK.capabilities, ...EXT } };

runHostCases(U1, [
  {
    name: "unknown members ignored",
    build: () => hostTx().scenario("lock-step").honest().scenario("unknown-members").honest(ODD),
    status: "pass",
    says: [
      /the host queried \(line 10\) after a handshake_ack full of unknown members \(line 9\), as it did in lock-step \(line 4\)/,
      /scenario unknown-members: the host exited with status 0 \(line 13\), as in lock-step \(line 7\)/,
    ],
  },
  {
    name: "the ack rejected for its unknown members",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .honest()
        .scenario("unknown-members")
        .handshake(ODD)
        .print("stderr", "unknown field `cgp_conform_extension`")
        .end({ code: 1 }),
    status: "fail",
    codes: ["host:U1.no-query-after-ack", "host:U1.ending-differs"],
    says: [
      /after a handshake_ack \(line 9\) that differs from lock-step's only by unknown members, the host sent no query, though in lock-step it did \(line 4\)/,
      /the host exited with status 1 \(line 11\), but in lock-step, identical but for unknown members in every object the provider sends, it exited with status 0 \(line 7\)/,
    ],
    lines: [9, 11],
  },
  {
    name: "a hang where lock-step exited",
    build: () => hostTx().scenario("lock-step").honest().scenario("unknown-members").handshake(ODD).end({ hang: 1000 }),
    status: "fail",
    codes: ["host:U1.ending-differs"],
    says: [/did not end within 1000 ms and was killed/],
  },
  {
    name: "a host that exits 1 in both is consistent",
    build: () =>
      hostTx().scenario("lock-step").handshake().send(SHUTDOWN).end({ code: 1 }).scenario("unknown-members").handshake(ODD).send(SHUTDOWN).end({ code: 1 }),
    status: "pass",
  },
  {
    name: "no baseline",
    build: () => hostTx().scenario("unknown-members").honest(ODD),
    status: "skip",
    says: [/lock-step did not run/],
  },
  {
    name: "no ack in unknown-members (the handshake was refused): skip",
    build: () =>
      hostTx().scenario("lock-step").honest().scenario("unknown-members").send({ type: "handshake", protocol_version: "contextgraph/1.0" }).end({ code: 1 }),
    status: "skip",
    says: [/sent no handshake_ack \(it refused the host's handshake\), so no unknown member reached the host/],
  },
  {
    name: "what it delivered: the frames lock-step's block holds, in the block",
    build: () => turns(turns(hostTx(), "lock-step"), "unknown-members"),
    status: "pass",
    says: [/scenario unknown-members, line \d+: the block holds every one of the 5 frames that lock-step's first block \(line \d+\) holds/],
  },
  {
    name: "the answer dropped for its unknown members, exit 0 all the same",
    build: () => turns(turns(hostTx(), "lock-step"), "unknown-members", () => undefined),
    status: "fail",
    codes: ["host:U1.answer-dropped"],
    says: [
      /scenario unknown-members: the host wrote no block holding a frame it was served, so none of the 5 frames \(cgpmark-fx-01, cgpmark-fx-02, cgpmark-fx-03, cgpmark-fx-04, …\) that lock-step's first block \(line \d+\) holds is there, after an answer \(line \d+\) that differs from lock-step's only by unknown members in every object/,
    ],
  },
  {
    name: "no block in lock-step either: nothing to compare",
    build: () =>
      turns(
        turns(hostTx(), "lock-step", () => undefined),
        "unknown-members",
        () => undefined,
      ),
    status: "pass",
    never: [/block/],
  },
  {
    name: "blocks that hold no frame content: what it delivered cannot be compared, at info level",
    build: () =>
      turns(
        turns(hostTx(), "lock-step", () => "Retrieved 5 context frame(s).", 2),
        "unknown-members",
        () => "Retrieved 5 context frame(s).",
        2,
      ),
    status: "info",
    codes: ["host:U1.uncomparable"],
    says: [
      /scenario unknown-members: what the host delivered after an answer \(line \d+\) that differs from lock-step's only by unknown members in every object cannot be compared with lock-step's: lock-step's 2 blocks \(lines \d+, \d+\) hold no frame content/,
      /whether the host received and used that answer cannot be seen: lock-step's blocks hold no frame content/,
    ],
    never: [/carried on/],
  },
  {
    name: "a host of two turns: a later block holds the next answer's frames",
    build: () => turns(turns(hostTx(), "lock-step", undefined, 2), "unknown-members", undefined, 2),
    status: "pass",
    says: [
      /the host carried on after the answer at line \d+: its next query \(line \d+\) was answered \(line \d+\), and a later block \(line \d+\) holds 5 of that answer's frames/,
    ],
  },
]);
