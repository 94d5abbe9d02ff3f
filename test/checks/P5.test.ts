import P5 from "../../checks/P5.ts";
import { REPRESENTATIONS } from "../../src/protocol/caps.ts";
import { HANDSHAKE, REPRESENTATIONS_QUERY, UNADVERTISED_REPRESENTATION } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { advertising, compact, full, preferring, reference, type Rep } from "../helpers/representation.ts";
import { frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

interface Negotiation {
  representations?: Rep[];
  resolve?: boolean;
  /** Answers to the prefer-<r> queries (default: frames in r). */
  prefer?: Partial<Record<Rep, object>>;
  /** The answer to the unadvertised preference (default: unsupported_representation); null: none; "exit": the provider dies. */
  unadvertised?: object | null | "exit";
}

/**
 * Handshake (shared) 2–3; representations: prefer-<r> for each advertised r
 * (full 4/5, compact 6/7); unadvertised-representation in its own session:
 * handshake 8–9, the unadvertised query 10, its answer 11.
 */
function negotiation(o: Negotiation = {}): () => TranscriptBuilder {
  return () => {
    const list = o.representations;
    const ack = advertising(list, "resolve" in o ? o.resolve : list?.some((r) => r !== "full") ? true : undefined);
    const b = tx().probe(HANDSHAKE.name, "shared").handshake(ack).probe(REPRESENTATIONS_QUERY.name, "shared");
    const shapeOf: Record<Rep, () => object> = { full, compact, reference };
    for (const r of REPRESENTATIONS.filter((x) => list?.includes(x))) preferring(b, r, o.prefer?.[r] ?? frames(`prefer-${r}`, [shapeOf[r]()]));
    b.probe(UNADVERTISED_REPRESENTATION.name).handshake(ack);
    const missing = REPRESENTATIONS.find((r) => !(list ?? ["full"]).includes(r));
    if (!missing) return b;
    b.send(UNADVERTISED_REPRESENTATION.steps.unadvertised, query("unadv-1", { representation_preferences: [missing] }));
    if (o.unadvertised === null) return b.note("timeout", { waitedMs: 800, expecting: "a reply" });
    if (o.unadvertised === "exit") return b.note("eof").note("exit", { exitCode: 1, signal: null });
    return b.recv(o.unadvertised ?? { type: "error", id: "unadv-1", code: "unsupported_representation", message: `not offered: ${missing}` });
  };
}

const FULL_COMPACT: Rep[] = ["full", "compact"];

runCases(P5, [
  {
    name: "advertised with resolve, honoured, and the unadvertised refused by name",
    build: negotiation({ representations: FULL_COMPACT }),
    status: "pass",
    says: [
      /advertises compact with resolve: true/,
      /preferring full: every frame is in an advertised representation/,
      /preferring compact: every frame is in an advertised representation/,
      /preferring the unadvertised reference: error unsupported_representation/,
    ],
  },
  {
    name: "the unadvertised preference falls back to full",
    build: negotiation({ representations: FULL_COMPACT, unadvertised: frames("unadv-1", [full()]) }),
    status: "pass",
    says: [/preferring the unadvertised reference: fell back to full/],
  },
  {
    name: "nothing advertised: full only, compact is the unadvertised one",
    build: negotiation(),
    status: "pass",
    says: [/preferring the unadvertised compact: error unsupported_representation/],
  },
  {
    name: "compact advertised without resolve",
    build: negotiation({ representations: FULL_COMPACT, resolve: undefined }),
    status: "fail",
    codes: ["P5.no-resolve"],
    says: [/advertises compact without resolve: true \(§6\.4: compact\/reference ⇒ resolve\) \| resolve: true \| resolve: absent/],
  },
  // No keyword binds a provider to honour a preference, or confines what it serves to what it advertises.
  {
    name: "an advertised representation refused",
    build: negotiation({
      representations: FULL_COMPACT,
      prefer: { compact: { type: "error", id: "prefer-compact", code: "unsupported_representation", message: "no" } },
    }),
    status: "warn",
    codes: ["P5.advertised-refused"],
    strict: "warn",
    says: [
      /a query preferring the advertised representation compact was refused with error "unsupported_representation" \| frames \| error "unsupported_representation"/,
    ],
  },
  {
    // The error table's transient overload: a run cannot tell it from the truth, so it informs.
    name: "an advertised representation answered unavailable",
    build: negotiation({
      representations: FULL_COMPACT,
      prefer: { compact: { type: "error", id: "prefer-compact", code: "unavailable", message: "busy" } },
    }),
    status: "info",
    codes: ["P5.advertised-unavailable"],
    strict: "info",
    says: [/answered error unavailable/],
  },
  {
    // "Absent means full", "or fall back to full": full frames for an advertised preference never warn.
    name: "full frames for an advertised compact preference",
    build: negotiation({ representations: ["compact"], prefer: { compact: frames("prefer-compact", [full()]) } }),
    status: "pass",
    codes: ["P5.advertised-served"],
  },
  {
    name: "a representation served that was never advertised",
    build: negotiation({ representations: FULL_COMPACT, prefer: { compact: frames("prefer-compact", [compact(), reference()]) } }),
    status: "warn",
    codes: ["P5.foreign-served"],
    strict: "warn",
    says: [/preferring compact, the provider served "frm_ref" as "reference", which it does not advertise \| one of full, compact \| "reference"/],
  },
  {
    name: "the unadvertised preference refused with another code",
    build: negotiation({ representations: FULL_COMPACT, unadvertised: { type: "error", id: "unadv-1", code: "bad_request", message: "?" } }),
    status: "warn",
    codes: ["P5.unadvertised-mishandled"],
    strict: "fail",
    says: [/preferring the unadvertised reference, the provider neither replied unsupported_representation nor fell back to full \| .* \| error "bad_request"/],
  },
  {
    name: "the unadvertised preference served anyway",
    build: negotiation({ representations: FULL_COMPACT, unadvertised: frames("unadv-1", [reference()]) }),
    status: "warn",
    codes: ["P5.unadvertised-mishandled"],
    strict: "fail",
    says: [/neither replied unsupported_representation nor fell back to full \| .* \| frames in \["reference"\]/],
  },
  {
    // The SHOULD is to reply unsupported_representation or fall back to full: silence falls short of it.
    name: "the unadvertised preference left unanswered",
    build: negotiation({ representations: FULL_COMPACT, unadvertised: null }),
    status: "warn",
    codes: ["P5.unadvertised-silent"],
    strict: "fail",
    says: [/a query preferring the unadvertised reference \(line 10\) got no answer: no reply within 800 ms/],
  },
  {
    name: "the provider dies on the unadvertised preference: R1's crash, not observed here",
    build: negotiation({ representations: FULL_COMPACT, unadvertised: "exit" }),
    status: "unobserved",
    codes: ["P5.unadvertised-unobserved"],
    untestable: true,
    says: [/a query preferring the unadvertised reference \(line 10\) got no answer: the provider exited \(code 1\)/],
  },
]);
