import S6 from "../../../checks/host/S6-reference.ts";
import { honestHost, type Held } from "../../../src/reference/host.ts";
import { REFERENCE_ID } from "../../../src/reference/musts.ts";
import { hostTx, runHostCases } from "../../helpers/host-transcript.ts";
import { block, turns } from "../../helpers/compose.ts";

const isRef = (h: Held): boolean => h.frame.id === REFERENCE_ID;
/** The honest block, with the reference frame's content made up as `fill` gives it. */
const filled =
  (fill: (h: Held) => string) =>
  (held: Held[]): string =>
    block(held.map((h) => (isRef(h) ? { ...h, frame: { ...h.frame, content: fill(h) } } : h)));

/** A markdown host: a heading with the title, the content, the citation after it. */
const markdown =
  (fill?: (h: Held) => string) =>
  (held: Held[]): string =>
    honestHost.order
      .call(honestHost, held)
      .map((h) => `### ${h.frame.title}\n\n${typeof h.frame.content === "string" ? h.frame.content : fill ? fill(h) : ""}\n\n— ${h.frame.citation_label}\n`)
      .join("\n");

runHostCases(S6, [
  {
    name: "the reference frame rendered with no content: it contributes nothing",
    build: () => turns(hostTx(), "reference-unresolvable"),
    status: "pass",
    codes: ["host:S6-reference.empty"],
    says: [
      /the block names reference frame fixture:ref-2, and neither its title nor its citation label stands where the full frames' content stands after their title/,
    ],
  },
  {
    name: "its title rendered as its content",
    build: () =>
      turns(
        hostTx(),
        "reference-unresolvable",
        filled((h) => String(h.frame.title)),
      ),
    status: "fail",
    codes: ["host:S6-reference.fabricated"],
    says: [
      /the block writes the title of reference frame fixture:ref-2 \(cgpmark-rt-02\) where it writes a frame's content, \d+ characters after the marker opening its title, as full frame fixture:ref-1's content \(cgpmark-rc-01\) stands after its own/,
    ],
  },
  {
    name: "its citation label rendered as its content",
    build: () =>
      turns(
        hostTx(),
        "reference-unresolvable",
        filled((h) => String(h.frame.citation_label)),
      ),
    status: "fail",
    says: [/writes the citation label of reference frame fixture:ref-2 \(cgpmark-rl-02\) where it writes a frame's content/],
  },
  {
    name: "a note of the host's own where the content would be: it claims nothing of the source",
    build: () =>
      turns(
        hostTx(),
        "reference-unresolvable",
        filled(() => "[reference frame: content not available]"),
      ),
    status: "pass",
  },
  {
    name: "named by its uri in a note: a citation, not content",
    build: () =>
      turns(
        hostTx(),
        "reference-unresolvable",
        filled((h) => `[not rehydrated: see ${String(h.frame.uri)}]`),
      ),
    status: "pass",
  },
  {
    name: "a template that writes every title twice, the content at the same distance after the second: honest",
    build: () =>
      turns(hostTx(), "reference-unresolvable", (held) =>
        held.map((h) => `${h.frame.title}\n${h.frame.title}\n${typeof h.frame.content === "string" ? h.frame.content : ""}\n`).join("\n"),
      ),
    status: "pass",
    codes: ["host:S6-reference.empty"],
  },
  {
    name: "left out of the block",
    build: () => turns(hostTx(), "reference-unresolvable", (held) => block(held.filter((h) => !isRef(h)))),
    status: "pass",
    codes: ["host:S6-reference.left-out"],
  },
  {
    name: "a markdown host, honest",
    build: () => turns(hostTx(), "reference-unresolvable", markdown()),
    status: "pass",
    codes: ["host:S6-reference.empty"],
  },
  {
    name: "a markdown host, the title under the heading again",
    build: () =>
      turns(
        hostTx(),
        "reference-unresolvable",
        markdown((h) => String(h.frame.title)),
      ),
    status: "fail",
    codes: ["host:S6-reference.fabricated"],
  },
  {
    name: "titles listed apart from the contents: where content goes cannot be told, at info level",
    build: () =>
      turns(hostTx(), "reference-unresolvable", (held) =>
        [
          `Sources: ${held.map((h) => `${h.frame.title} [${h.frame.citation_label}]`).join("; ")}`,
          ...held.map((h) => (typeof h.frame.content === "string" ? h.frame.content : "")),
        ].join("\n"),
      ),
    status: "info",
    codes: ["host:S6-reference.unlocated"],
  },
  {
    name: "no block: skip, naming {context}",
    build: () => turns(hostTx(), "reference-unresolvable", () => undefined),
    status: "skip",
    says: [/\{context\}/],
  },
  {
    name: "the scenario did not run: skip",
    build: () => hostTx().scenario("reference-unresolvable", { skipped: "not selected" }),
    status: "skip",
  },
]);
