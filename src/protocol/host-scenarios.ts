/**
 * The scenarios `cgp-conform host` runs a host in, declared once: the
 * runner serves them, the host checks read them back by these names, and a
 * scenario view asked for a name not declared here throws, so a typo can
 * never make a host check see nothing and skip in silence.
 *
 * In each scenario the host under test is run once, against a provider
 * cgp-conform controls (the reference provider with the scenario's declared
 * capabilities and behaviour), and is expected to do one ordinary piece of
 * work: handshake, one or more queries, maybe a verify, shutdown, exit.
 * It holds no consent for anything, but where a scenario says otherwise.
 * Its provider is on loopback, but where a scenario is served on the
 * non-loopback address the user names (`--listen ADDR`).
 */

/**
 * What a host under test is told it holds for its scenario's provider (in
 * CGP_CONSENT and {consent}). `egress`: a boolean consent, what
 * context-reuse §3 calls a ConsentRecord, recorded for that provider, and no
 * consent receipt for any egress scope. `none`: no consent for anything.
 */
export type Consent = "none" | "egress";

export interface ScenarioSpec {
  name: string;
  /** What the scenario provider declares and does, in one line (docs/hosts.md, explain, evidence). */
  summary: string;
  /** Only over this transport (the bearer token exists only over HTTP). */
  only?: "stdio" | "http";
  /** The consent the host is told it holds for this scenario's provider; absent: none. */
  consent?: Exclude<Consent, "none">;
  /**
   * Served on the non-loopback address `--listen` names, over plain HTTP or
   * over TLS, instead of on loopback (HTTP only). Without that address the
   * scenario is skipped.
   */
  listen?: "http" | "https";
  /**
   * How many providers the scenario serves, each with its own handshake name
   * ({provider}, {provider2}, {provider3}; {url}…{url3}); absent: one. A host
   * command that names fewer is not run in it.
   */
  providers?: 2 | 3;
}

function scenario<const N extends string>(
  name: N,
  summary: string,
  more: { only?: "stdio" | "http"; consent?: Exclude<Consent, "none">; listen?: "http" | "https"; providers?: 2 | 3 } = {},
): ScenarioSpec & { name: N } {
  return {
    name,
    summary,
    ...(more.only ? { only: more.only } : {}),
    ...(more.consent ? { consent: more.consent } : {}),
    ...(more.listen ? { listen: more.listen } : {}),
    ...(more.providers ? { providers: more.providers } : {}),
  };
}

export const LOCK_STEP = scenario(
  "lock-step",
  "the baseline: an honest provider that declares neither correlation nor verify nor an embeddings fingerprint, and advertises full and compact; each frame's content holds a marker of its own (cgpmark-fx-NN), the same for a document in unknown-members and unknown-vocabulary",
);
export const CORRELATION = scenario("correlation", "as lock-step, but it declares capabilities.correlation: ids are welcome and echoed");
export const FOREIGN_EMBEDDINGS = scenario(
  "foreign-embeddings",
  "it declares an embeddings_fingerprint made for this run, which no host can have: the host must not send query.embedding (E1)",
);
export const REPRESENTATIONS_SUBSET = scenario(
  "representations-subset",
  "it advertises only the full representation: representation_preferences may name nothing else (P5)",
);
export const VERIFY_DECLARED = scenario(
  "verify-declared",
  "it declares capabilities.verify and serves one frame without a content_digest: a verify carries identities only, digest-bearing ones (V1)",
);
export const EGRESS = scenario("egress", "it declares data_flow.egress: true and no scopes, and the run gives no consent: no query payload may reach it (C2)");
export const EGRESS_SCOPES = scenario(
  "egress-scopes",
  "it declares off-machine egress_scopes (third-party-model, cgp-conform:mirror) beside egress: false, and no receipt exists: the host must refuse the query, naming the scopes (C6). The flag says local on purpose (a contradiction C5 forbids a provider): only the scope gate, not the boolean one, can stop the query, unless the host rejects the contradiction at the handshake; egress-scopes-consented is the consistent case",
);
export const EGRESS_SCOPES_CONSENTED = scenario(
  "egress-scopes-consented",
  "it declares off-machine egress_scopes (third-party-model, cgp-conform:mirror) beside egress: true, and the host is told (CGP_CONSENT and {consent}: egress) that it holds a boolean consent for this provider and no receipt for any scope: the boolean gate (C2) lets the query through, and only the scope gate can stop it. The host must refuse the query, naming the scopes (C6): a boolean consent does not satisfy a scope gate",
  { consent: "egress" },
);
export const WRONG_FAMILY = scenario(
  "wrong-family",
  "it answers the handshake with a handshake_ack of the next major family after the host's: the host must refuse with a named error, never hang (H3)",
);
export const UNKNOWN_MEMBERS = scenario(
  "unknown-members",
  "as lock-step, with members no revision defines at every level of its ack and frames: the host must ignore them (U1), and compose what it composes in lock-step",
);
export const UNKNOWN_VOCABULARY = scenario(
  "unknown-vocabulary",
  "as lock-step, with a frame of an unknown kind (when the query did not narrow kinds) and a relation with an unknown namespaced rel: the host must take them as opaque evidence (U2), and compose the frames beside them as in lock-step",
);
export const ERROR_INTERNAL = scenario(
  "error-internal",
  "it answers every query with error code internal: the host's reaction to a provider fault (the baseline of X1)",
);
export const ERROR_UNKNOWN_CODE = scenario(
  "error-unknown-code",
  "it answers every query with an error code no revision defines (cgp-conform:unheard-of): the host must treat it as internal (X1)",
);
export const ERROR_NO_CODE = scenario(
  "error-no-code",
  "it answers every query with an error that carries a message and no code: the host must treat it as internal (X2)",
);
export const BEARER_TOKEN = scenario(
  "bearer-token",
  "over HTTP, it requires Authorization: Bearer with a token made for this run: the host must never write the token out (C8)",
  { only: "http" },
);
export const CRASH_MID_QUERY = scenario(
  "crash-mid-query",
  "it reads the first query, writes half a line, and dies (stdio: exit status 1; HTTP: the connection is dropped); bounded by at least 45 000 ms, whatever --timeout says, so that a host's own deadline runs out first",
);
export const STOPS_ANSWERING = scenario(
  "stops-answering",
  "it answers the handshake, then never answers again, and never exits on its own; bounded by at least 45 000 ms, whatever --timeout says, so that a host's own deadline runs out first",
);
export const NON_LOOPBACK_PLAINTEXT = scenario(
  "non-loopback-plaintext",
  "served on the --listen address over plain http://, it declares data_flow.egress: true and no scopes, and the host is told (CGP_CONSENT and {consent}: egress) that it holds a boolean consent for this provider: no consent gate stops the query, only the transport can. No query payload may cross the unencrypted connection (C7)",
  { only: "http", consent: "egress", listen: "http" },
);
export const NON_LOOPBACK_TLS = scenario(
  "non-loopback-tls",
  "served on the --listen address over https://, with a certificate made for this run (its CA in CGP_PROVIDER_CA and {ca}), it declares data_flow.egress: false and no scopes, and the host holds no consent: its transport must treat the provider as egress whatever it declares, so no query payload may reach it (C4); TLS leaves C7 nothing to stop",
  { only: "http", listen: "https" },
);
export const COMPOSE = scenario(
  "compose",
  "two providers (cgp-conform-wiki first, cgp-conform-code second) serve eight small frames with room for all, each frame's content holding a marker of its own, in an order that is not canonical: the frame id fixture:shared from both, and twice from the first (without and with a content_digest), and ids that code-point order sorts otherwise than a natural or case-blind sort does. The context block must emit them in canonical FrameId order (context-reuse §1)",
  { providers: 2 },
);
export const COMPOSE_REORDERED = scenario(
  "compose-reordered",
  "as compose, the same frames with the same scores, each provider's answer in another order: the block must be byte-identical to compose's (context-reuse §1)",
  { providers: 2 },
);
export const COMPOSE_RESCORED = scenario(
  "compose-rescored",
  "as compose, the same frames in the same order, every score changed: the rendered bytes must not change (context-reuse §1: score must not affect them)",
  { providers: 2 },
);
export const THREE_PROVIDERS = scenario(
  "three-providers",
  "three providers (cgp-conform-wiki, cgp-conform-code, cgp-conform-notes): the first serves frames with a content_digest; the second serves one of their frame ids without one, and a frame the first serves too, the same id, content and digest; the third serves nothing. A usage report must name every served frame by its full FrameId, and re-sum (UR1)",
  { providers: 3 },
);

/*
 * The composition scenarios again, for a host that takes one provider
 * ({provider} alone): one provider serves the frame set, in two arrival
 * orders and with other scores (CR1-order, CR1-render), and one provider
 * breaks B1 in an answer beside an honest one (B2). A host naming more
 * providers runs these and the ones above.
 */
export const COMPOSE_ONE = scenario(
  "compose-one",
  "one provider (cgp-conform-solo) serves seven small frames with room for all, each frame's content holding a marker of its own, in an order that is not canonical: the frame id fixture:shared twice (without and with a content_digest), and ids that code-point order sorts otherwise than a natural or case-blind sort does. The context block must emit them in canonical FrameId order (context-reuse §1)",
);
export const COMPOSE_ONE_REORDERED = scenario(
  "compose-one-reordered",
  "as compose-one, the same frames with the same scores, its answer in another order: the block must be byte-identical to compose-one's (context-reuse §1)",
);
export const COMPOSE_ONE_RESCORED = scenario(
  "compose-one-rescored",
  "as compose-one, the same frames in the same order, every score changed: the rendered bytes must not change (context-reuse §1: score must not affect them)",
);
export const BUDGET_BREAKER_ONE = scenario(
  "budget-breaker-one",
  "one provider (cgp-conform-lumpy) declares capabilities.verify and answers its first query honestly, two small frames (one with a content_digest, which a verify calls valid, one without), and every later query with frames whose summed token_cost exceeds the query's max_tokens (B1), each frame's token_cost exact (B3) and all but one of them within it. A host that queries it again (the digest-less frame cannot be verified, so it is fetched again) must compose none of the later answer's frames, may compose the first answer's, and must report the drop (B2)",
);

// Host MUSTs: context-reuse §4 without verify, U2 kinds kept
/**
 * Reuse without verify (context-reuse §4): one provider whose sources change
 * after its first answer, as in reuse, but declaring no verify, so what a
 * host holds of it can only be queried again. src/reference/reuse.ts serves
 * it. U2's kind kept verbatim is judged in unknown-vocabulary.
 */
export const REUSE_WITHOUT_VERIFY = scenario(
  "reuse-without-verify",
  "as reuse, but it declares no capabilities.verify: it serves four frames, each with a marker of its own and a content_digest, each saying (valid_to) that its content holds true until the moment of that first answer; its sources then change, so a later query serves one as it was, two with new content under new markers and digests, and not the fourth. A block composed after the host's query again must hold no stored copy of the three it changed or no longer serves: held frames of a provider without verify are queried again, never reused unchecked (context-reuse §4)",
);

/**
 * Reuse (V2–V4, D3): one provider whose sources change after its first
 * answer, and a verify that says so. src/reference/reuse.ts serves it.
 */
export const REUSE = scenario(
  "reuse",
  "it declares capabilities.verify and serves six frames, each with a marker of its own, five with a content_digest and one without; its sources then change, so a verify of them answers valid for one, stale (with a replacement_digest) for one, gone for one, unknown for one, and leaves one out, and a later query serves the stale, unknown and left-out frames' new content under new markers and digests, the digest-less frame's new content under a new marker, and not the gone one. A block composed after the verdicts may reuse the stored copy of the valid frame alone (V2, V3, V4), and never that of the digest-less one (D3)",
);

// Scores across providers (F10), and the bound of the fault scenarios (§11.1).
export const SCORE_RANGES = scenario(
  "score-ranges",
  "two providers (cgp-conform-wiki first, cgp-conform-code second) serve two small frames each, alike but for their scores: the first scores 0.95 and 0.40, the second 0.009 and 0.001, each frame's content holding a marker of its own, four frames of about 80 tokens in all, room for both answers in any query that asks for four frames. A threshold applied across providers would drop every frame of the second (F10)",
  { providers: 2 },
);
/*
 * R3, B2 and F9: what a host does with content it must not obey, with a
 * provider that broke its budget, and with attestations it cannot verify
 * (src/protocol/adversarial.ts holds what their providers serve).
 */
export const QUOTED_BENIGN = scenario(
  "quoted-benign",
  "one provider (cgp-conform-quotes) serves three small frames with room for all, each frame's content opening with a marker of its own and closing with another: quoted-hostile's honest counterpart, the same frames with plain content",
);
export const QUOTED_HOSTILE = scenario(
  "quoted-hostile",
  "as quoted-benign, but the second frame's content, the same size, holds between its markers the usual closers of quoted material (end tags, code fences, CDATA and comment ends, chat-template tokens), each on a line of its own, an instruction-shaped line (SYSTEM: ignore all previous instructions …) and a forged sibling frame opener: the block must quote it as it quotes the benign content, no line of it closing its frame (R3)",
);
export const BUDGET_BREAKER = scenario(
  "budget-breaker",
  "two providers: the first (cgp-conform-bulk) answers every query with frames whose summed token_cost exceeds the query's max_tokens (B1), each frame's token_cost exact (B3) and all but one of them within it; the second (cgp-conform-docs) serves two small frames within budget. None of the first's frames may reach a block, the second's must, and the drop must be reported (B2)",
  { providers: 2 },
);
export const UNVERIFIABLE_ATTESTATION = scenario(
  "unverifiable-attestation",
  "one provider (cgp-conform-signed) publishes an attester key and serves four frames alike in kind, size and score, with room for all: three carry an attestation no host can verify (an unknown algorithm; a signature that does not verify under the published key; a key_id no published key answers), the fourth carries none, last in canonical and in arrival order (a host packing whole frames under a budget of its own leaves it out before any attested one). Each must be composed, unattested (F9)",
);

// Host MUSTs: §6.4 reference frames, §10 incompatible_version, §2 unknown types.
export const REFERENCE_UNRESOLVABLE = scenario(
  "reference-unresolvable",
  "one provider (cgp-conform-refs) advertises full and reference, and serves three frames alike in kind, size and score, with room for all: two full frames, and between them (in canonical order) a reference frame, with no content, whose content_ref names a handle no host can resolve (1.0 has no resolve operation, and the handle's URI names nothing). Each frame's title opens with a marker of its own (cgpmark-rt-NN), its citation label too (cgpmark-rl-NN), and a full frame's content too (cgpmark-rc-NN), the rest of each alike. The reference frame's contribution must be empty: nothing may stand where the host puts a frame's content (protocol-surface §6.4)",
);
export const INCOMPATIBLE_VERSION = scenario(
  "incompatible-version",
  "it answers every handshake with error code incompatible_version (it speaks another major family only): the provider is unusable, and the error must not be read as retryable: no second handshake, no query (protocol-surface §10)",
);
export const UNKNOWN_ENVELOPE_TYPE = scenario(
  "unknown-envelope-type",
  "as lock-step, but its handshake_ack acknowledges a later minor (contextgraph/1.7), and around each frames answer it writes a notification (no id) of a type no revision of 1.0 defines, one before and one after: the host must ignore them and compose what it composes in lock-step (protocol-surface §2). Over stdio only: over HTTP a provider has no way to send an envelope unasked",
  { only: "stdio" },
);

/** The version UNKNOWN_ENVELOPE_TYPE's provider acknowledges: a later minor of the host's family, as a provider newer than the host speaks. */
export const LATER_MINOR = "contextgraph/1.7";
/** The type of the notifications it sends: none in 1.0's vocabulary, a push a later minor might define (§9 foresees one). */
export const UNKNOWN_ENVELOPE = "frames_invalidated";
/** Where REFERENCE_UNRESOLVABLE's frames carry their markers: the title's, the citation label's and a full frame's content's, by letter pair. */
export const REFERENCE_MARKS = { title: "rt", cite: "rl", content: "rc" } as const;

export const SCENARIOS = [
  LOCK_STEP,
  CORRELATION,
  FOREIGN_EMBEDDINGS,
  REPRESENTATIONS_SUBSET,
  VERIFY_DECLARED,
  EGRESS,
  EGRESS_SCOPES,
  EGRESS_SCOPES_CONSENTED,
  WRONG_FAMILY,
  UNKNOWN_MEMBERS,
  UNKNOWN_VOCABULARY,
  ERROR_INTERNAL,
  ERROR_UNKNOWN_CODE,
  ERROR_NO_CODE,
  BEARER_TOKEN,
  CRASH_MID_QUERY,
  STOPS_ANSWERING,
  NON_LOOPBACK_PLAINTEXT,
  NON_LOOPBACK_TLS,
  COMPOSE,
  COMPOSE_REORDERED,
  COMPOSE_RESCORED,
  THREE_PROVIDERS,
  COMPOSE_ONE,
  COMPOSE_ONE_REORDERED,
  COMPOSE_ONE_RESCORED,
  BUDGET_BREAKER_ONE,
  // Host MUSTs: context-reuse §4 without verify, U2 kinds kept
  REUSE_WITHOUT_VERIFY,
  REUSE,
  SCORE_RANGES,
  QUOTED_BENIGN,
  QUOTED_HOSTILE,
  BUDGET_BREAKER,
  UNVERIFIABLE_ATTESTATION,
  // Host MUSTs: §6.4 reference frames, §10 incompatible_version, §2 unknown types.
  REFERENCE_UNRESOLVABLE,
  INCOMPATIBLE_VERSION,
  UNKNOWN_ENVELOPE_TYPE,
] as const;

export type ScenarioName = (typeof SCENARIOS)[number]["name"];

/** The off-machine scopes EGRESS_SCOPES and EGRESS_SCOPES_CONSENTED declare: a base class, and a custom one (an unrecognised custom scope is off-machine). */
export const OFF_MACHINE_SCOPES = ["third-party-model", "cgp-conform:mirror"];
/** The error code ERROR_UNKNOWN_CODE answers with: namespaced (U3), so it can never collide with one a revision defines. */
export const UNHEARD_OF_CODE = "cgp-conform:unheard-of";
/** The kind and rel UNKNOWN_VOCABULARY serves. */
export const UNKNOWN_KIND = "hologram";
export const UNKNOWN_REL = "cgp-conform:echoes";

/**
 * The marker each frame of the composition scenarios carries in its content,
 * once: how a check finds a frame in a context block without knowing how the
 * host renders one. Letters, digits and hyphens only, fixed width, so no
 * escaping a host applies to quoted material changes it and none is a prefix
 * of another.
 */
export const MARKER = /cgpmark-[a-z]{2}-\d{2}/g;

/** The markers a text holds, in order of first appearance, each once. */
export function markersIn(text: string): string[] {
  return [...new Set(text.match(MARKER) ?? [])];
}

/**
 * The placeholders a host command line may hold, and the environment
 * variables that carry the same values. {consent} is filled in every
 * scenario (`none` where the host holds no consent); CGP_CONSENT is set only
 * where it holds some, so a host that reads it finds it absent elsewhere.
 * {ca} and CGP_PROVIDER_CA are given in every scenario, so that a host
 * command holding {ca} means the same in each.
 */
export const PLACEHOLDERS = {
  provider: "{provider}",
  url: "{url}",
  token: "{token}",
  consent: "{consent}",
  ca: "{ca}",
  /** A scenario's further providers: a scenario with fewer leaves a whole such argument out, and one inside a longer argument empty. */
  provider2: "{provider2}",
  provider3: "{provider3}",
  url2: "{url2}",
  url3: "{url3}",
  /** The file the host appends one line to for each context block it composes: {"text": "<the block, exactly>"}. */
  context: "{context}",
  /** The file the host appends one line to for each query it executed: its usage report (context-reuse §2). */
  usage: "{usage}",
} as const;

/** The placeholders of each provider of a scenario, in order, by transport. */
export const PROVIDER_PLACEHOLDERS = {
  stdio: [PLACEHOLDERS.provider, PLACEHOLDERS.provider2, PLACEHOLDERS.provider3],
  http: [PLACEHOLDERS.url, PLACEHOLDERS.url2, PLACEHOLDERS.url3],
} as const;
export const HOST_ENV = {
  /** The provider's command line, as one shell-quoted string (stdio). */
  command: "CGP_PROVIDER_COMMAND",
  /** The same, as a JSON array of arguments (stdio). */
  argv: "CGP_PROVIDER_ARGV",
  /** The provider's URL (HTTP): on loopback, or on the --listen address. */
  url: "CGP_PROVIDER_URL",
  /** The bearer token the provider accepts (HTTP). */
  token: "CGP_PROVIDER_TOKEN",
  /** The scenario's name, for a host that logs it. */
  scenario: "CGP_SCENARIO",
  /** The consent the host holds for the scenario's provider (a Consent); set only in a scenario that gives one. */
  consent: "CGP_CONSENT",
  /** A PEM file: the certificate authority made for the run, which signed the certificate of the provider served over TLS. */
  ca: "CGP_PROVIDER_CA",
  /** Every provider of the scenario, first = {provider}: a JSON array of shell-quoted command lines (stdio). */
  commands: "CGP_PROVIDER_COMMANDS",
  /** Every provider of the scenario, first = {url}: a JSON array of loopback URLs (HTTP). */
  urls: "CGP_PROVIDER_URLS",
  /** {context}'s file. */
  context: "CGP_CONTEXT_PATH",
  /** {usage}'s file. */
  usage: "CGP_USAGE_PATH",
} as const;

/**
 * How many of a scenario's providers a host command can reach over a
 * transport: the first always; the further ones where it names their
 * placeholders in turn, or all of them where it names the variable listing
 * them (a `sh -c` line reading CGP_PROVIDER_COMMANDS).
 */
export function providersNamed(command: readonly string[], transport: "stdio" | "http"): number {
  const text = command.join(" ");
  if (text.includes(transport === "stdio" ? HOST_ENV.commands : HOST_ENV.urls)) return 3;
  const [, second, third] = PROVIDER_PLACEHOLDERS[transport];
  return text.includes(second) ? (text.includes(third) ? 3 : 2) : 1;
}

/**
 * The least bound on a scenario whose provider fails (crash-mid-query,
 * stops-answering), whatever --timeout says: a host that bounds its reads
 * ends there once its own deadline passes, and a reasonable deadline is
 * longer than the run's default bound (the protocol's own MCP server waits
 * 30 s on a provider). A larger --timeout stands.
 */
export const FAULT_BOUND_FLOOR_MS = 45_000;

/** The least bound on a scenario (0: the run's bound alone). */
export function boundFloorMs(spec: ScenarioSpec): number {
  return spec.name === CRASH_MID_QUERY.name || spec.name === STOPS_ANSWERING.name ? FAULT_BOUND_FLOOR_MS : 0;
}
