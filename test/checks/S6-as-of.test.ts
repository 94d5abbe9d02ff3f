import t from "tap";
import S6 from "../../checks/S6-as-of.ts";
import { pins } from "../../src/probe/as-of.ts";
import { AS_OF, HANDSHAKE, pinnedStep } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";
import { type Obj } from "../../src/protocol/envelope.ts";

/** Valid for the first half of 2026, and from July 2026 on. */
const OLD = frame({ id: "frm_old", valid_from: "2026-01-01T00:00:00Z", valid_to: "2026-06-30T00:00:00Z" });
const NEW = frame({ id: "frm_new", valid_from: "2026-07-01T00:00:00Z" });
const SERVED = [OLD, NEW];

/** The instants the probe pins, as it picks them: 2025-12-31, 2026-06-30 (OLD's valid_to itself), 2026-07-01. */
const PINS = pins(SERVED as Obj[], "quick").map((p) => p.at);

/** An honest provider: the frames whose window (bounds inclusive) contains the instant. */
const validAt = (at: string): object[] =>
  SERVED.filter((f) => {
    const t = Date.parse(at);
    return !(typeof f.valid_from === "string" && t < Date.parse(f.valid_from)) && !(typeof f.valid_to === "string" && t > Date.parse(f.valid_to));
  });

/**
 * Probe as-of in the shared session: handshake 2–3, unpinned 4/5, then
 * pinned-i at lines 4+2i / 5+2i. `answer` gives the reply to a pinned query
 * (null: none, and the probe stops).
 */
function asOf(answer: (at: string, id: string) => object | null = (at, id) => frames(id, validAt(at)), served: object[] = SERVED): () => TranscriptBuilder {
  return () => {
    const b = tx()
      .probe(HANDSHAKE.name, "shared")
      .handshake()
      .probe(AS_OF.name, "shared")
      .send(AS_OF.steps.unpinned, query("asof-0"))
      .recv(frames("asof-0", served));
    for (const [i, { at }] of pins(served as Obj[], "quick").entries()) {
      const id = `asof-${i + 1}`;
      b.send(pinnedStep(i + 1), query(id, { as_of: at }));
      const r = answer(at, id);
      if (r === null) return b.note("timeout", { waitedMs: 800, expecting: "a reply" });
      b.recv(r);
    }
    return b;
  };
}

runCases(S6, [
  {
    name: "the unpinned discovery query unanswered: no instant could be chosen, which is not observed, not a skip",
    codes: ["S6-as-of.discovery-lost"],
    build: () =>
      tx()
        .probe(HANDSHAKE.name, "shared")
        .handshake()
        .probe(AS_OF.name, "shared")
        .send(AS_OF.steps.unpinned, query("asof-0"))
        .note("timeout", { waitedMs: 800, expecting: "a reply" }),
    status: "unobserved",
    untestable: true,
    says: [
      /the discovery query \(line \d+, probe as-of, step unpinned\) got no answer: no reply within 800 ms, so the stimuli it would have chosen were never sent/,
    ],
  },
  {
    name: "every pinned answer is valid at its instant, bounds inclusive",
    build: asOf(),
    status: "pass",
    says: [
      /pinned at as_of 2025-12-31T00:00:00Z: 0 frames/,
      /pinned at as_of 2026-06-30T00:00:00Z: 1 frame, all valid then/,
      /pinned at as_of 2026-07-01T00:00:00Z: 1 frame, all valid then/,
    ],
  },
  {
    name: "as_of ignored: everything, every time",
    build: asOf((_, id) => frames(id, SERVED)),
    status: "warn",
    codes: ["S6-as-of.outside-window"],
    strict: "warn",
    says: [
      /pinned at as_of 2025-12-31T00:00:00Z, the provider returned frame "frm_old", whose valid_from 2026-01-01T00:00:00Z is after it; frame "frm_new", whose valid_from 2026-07-01T00:00:00Z is after it \| only frames whose validity window contains 2025-12-31T00:00:00Z \| "frm_old", "frm_new"/,
      /pinned at as_of 2026-06-30T00:00:00Z, the provider returned frame "frm_new", whose valid_from 2026-07-01T00:00:00Z is after it/,
      /pinned at as_of 2026-07-01T00:00:00Z, the provider returned frame "frm_old", whose valid_to 2026-06-30T00:00:00Z is before it/,
    ],
  },
  {
    name: "a frame one second past its valid_to",
    build: asOf((at, id) => frames(id, at === "2026-07-01T00:00:00Z" ? [NEW, frame({ ...OLD, valid_to: "2026-06-30T23:59:59Z" })] : validAt(at))),
    status: "warn",
    codes: ["S6-as-of.outside-window"],
    strict: "warn",
    says: [/as_of 2026-07-01T00:00:00Z, the provider returned frame "frm_old", whose valid_to 2026-06-30T23:59:59Z is before it/],
  },
  {
    name: "a pinned query refused",
    build: asOf((at, id) => (at === PINS[0] ? { type: "error", id, code: "bad_request", message: "as_of unsupported" } : frames(id, validAt(at)))),
    status: "warn",
    codes: ["S6-as-of.pinned-refused"],
    strict: "warn",
    says: [/query pinned at as_of 2025-12-31T00:00:00Z was refused with error "bad_request" \| frames valid at that instant \| error "bad_request"/],
  },
  {
    name: "a pinned query left unanswered",
    build: asOf((at, id) => (at === PINS[1] ? null : frames(id, validAt(at)))),
    status: "unobserved",
    untestable: true,
    says: [/query pinned at as_of 2026-06-30T00:00:00Z \(line 8\) got no answer: no reply within 800 ms/],
  },
  {
    name: "no served frame has a validity window",
    build: asOf(undefined, [frame()]),
    status: "skip",
    says: [/no served frame carries valid_from or valid_to/],
  },
]);

t.test("pins at standard depth reach each window's edges, outside-every-reading ones first", async (t) => {
  const f = (id: string, from?: string, to?: string): Obj => ({ id, kind: "doc", ...(from ? { valid_from: from } : {}), ...(to ? { valid_to: to } : {}) });
  const at = (depth: "quick" | "standard" | "exhaustive") =>
    pins([f("a", "2026-01-01T00:00:00Z", "2027-01-01T00:00:00.000Z"), f("b", "2026-03-01T00:00:00Z")], depth).map((p) => p.at);
  t.same(at("quick"), ["2025-12-31T00:00:00Z", "2026-02-28T00:00:00Z", "2027-01-02T00:00:00Z"]);
  const standard = at("standard");
  for (const edge of [
    "2025-12-31T23:59:59Z",
    "2026-01-01T00:00:00Z",
    "2026-02-28T23:59:59Z",
    "2026-12-31T23:59:59Z",
    "2027-01-01T00:00:00Z",
    "2027-01-01T00:00:01Z",
  ])
    t.ok(standard.includes(edge), `standard pins ${edge}`);
  t.same(at("exhaustive"), standard, "under the standard cap, exhaustive adds nothing");
  t.same(pins([f("bad", "2026-01-01 00:00:00")], "exhaustive"), [], "a window edge outside the F4 profile is never sent as as_of");
});
