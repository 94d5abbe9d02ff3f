import R3 from "../../../checks/host/R3.ts";
import type { Held } from "../../../src/reference/host.ts";
import { hostFor } from "../../../misbehave/host/apply.ts";
import { INSTRUCTION } from "../../../src/protocol/adversarial.ts";
import type { ScenarioName } from "../../../src/protocol/host-scenarios.ts";
import { hostTx, runHostCases } from "../../helpers/host-transcript.ts";
import { blockOf, end, serveAll } from "../../helpers/adversarial.ts";

type Compose = (held: Held[], scenario: ScenarioName) => string | undefined;

/** quoted-benign, then quoted-hostile, each block made by `compose`. */
function both(compose: Compose) {
  const b = hostTx();
  for (const name of ["quoted-benign", "quoted-hostile"] as const) {
    const [s] = serveAll(b, name);
    const text = compose(s!.held, name);
    if (text !== undefined) b.context(text);
    end(b);
  }
  return b;
}

const content = (h: Held): string => String(h.frame.content);
const id = (h: Held): string => String(h.frame.id);
const hostile = (h: Held): boolean => content(h).includes(INSTRUCTION);
const longestRun = (s: string): number => Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));

/** Formats of other hosts: none of them the reference host's. */
const cdata = (escape: boolean) => (held: Held[]) =>
  held.map((h) => `<doc id="${id(h)}">\n<![CDATA[${escape ? content(h).replace(/]]>/g, "]]]]><![CDATA[>") : content(h)}]]>\n</doc>`).join("\n");
const fenced = (adaptive: boolean) => (held: Held[]) =>
  held
    .map((h) => {
      const fence = "`".repeat(adaptive ? Math.max(3, longestRun(content(h)) + 1) : 3);
      return `### ${id(h)}\n${fence}text\n${content(h)}\n${fence}`;
    })
    .join("\n\n");
const indented = (held: Held[]) => held.map((h) => `### ${id(h)}\n\`\`\`\n${content(h).replace(/^/gm, "    ")}\n\`\`\``).join("\n\n");
const jsonLines = (held: Held[]) => held.map((h) => JSON.stringify({ id: id(h), content: content(h) })).join("\n");
const raw = hostFor("R3-raw-content");

runHostCases(R3, [
  {
    name: "the reference host: closers neutralised, the structure unchanged",
    build: () => both((held) => blockOf(held)),
    status: "pass",
    codes: ["host:R3.stays-quoted", "host:R3.structure-same"],
    says: [
      /scenario quoted-hostile, line \d+: the content of "fixture:quote-b" of cgp-conform-quotes, which holds 14 fence closers, an instruction-shaped line and a forged frame opener, stays inside its quotation: no line of it reads as "<\/frame>", the line the host ends that frame with/,
      /with every frame's content cut out, the block is quoted-benign's \(line \d+\) byte for byte/,
    ],
  },
  {
    name: "content fenced as served: its </frame> line closes the fence",
    build: () => both((held) => raw.compose.call(raw, held)),
    status: "fail",
    codes: ["host:R3.closes-own-quotation"],
    says: [
      /scenario quoted-hostile, line \d+: the content of "fixture:quote-b" of cgp-conform-quotes, .*, holds the line "<\/frame>" as it was served, and "<\/frame>" is the line the host ends that frame with: the content closes its own quotation/,
    ],
  },
  { name: "CDATA, ]]> split as XML does: honest", build: () => both(cdata(true)), status: "pass", says: [/no line of it reads as "]]>"/] },
  {
    name: "CDATA left unescaped",
    build: () => both(cdata(false)),
    status: "fail",
    codes: ["host:R3.closes-own-quotation"],
    says: [/holds the line "]]>" as it was served/],
  },
  {
    name: "a code fence longer than any backtick run in the content: honest; its structure differs, which only informs",
    build: () => both(fenced(true)),
    status: "info",
    codes: ["host:R3.stays-quoted", "host:R3.structure-differs"],
    says: [
      /no line of it reads as "````"/,
      /the block is not quoted-benign's \(line \d+\): they differ from character \d+.*a fence that grows to outlast the content does this/,
    ],
  },
  {
    name: "a fixed ``` fence around content holding ```",
    build: () => both(fenced(false)),
    status: "fail",
    codes: ["host:R3.closes-own-quotation"],
    says: [/holds the line "```" as it was served, and "```" is the line/],
  },
  { name: "content indented four columns inside a fence: code, not a closer", build: () => both(indented), status: "pass" },
  { name: "one JSON object per frame: the content a JSON string", build: () => both(jsonLines), status: "pass", says: [/no line of it reads as "\\"}"/] },
  {
    name: "contents between headings and nothing else: the next heading is no closer, a warning",
    build: () => both((held) => held.map((h) => `## src-1 ${JSON.stringify(id(h))}\n\n${content(h)}`).join("\n\n")),
    status: "warn",
    codes: ["host:R3.no-closer"],
    says: [/nothing but whitespace, or the next frame's opening line, follows the content of "fixture:quote-b"/],
  },
  {
    name: "contents separated by whitespace alone: no delimiter, a warning",
    build: () => both((held) => held.map(content).join("\n\n")),
    status: "warn",
    codes: ["host:R3.whitespace-between"],
    says: [/separates the contents of 3 frames by nothing but whitespace/],
  },
  {
    name: "the hostile frame left out: the host's policy, it informs, never a pass",
    build: () => both((held) => blockOf(held.filter((h) => !hostile(h)))),
    status: "info",
    codes: ["host:R3.left-out"],
    says: [/composes 2 other frames and leaves out the content of "fixture:quote-b"/],
  },
  {
    name: "none of quoted-hostile's frames composed, quoted-benign's were: it informs",
    build: () => both((held, s) => (s === "quoted-hostile" ? "No context." : blockOf(held))),
    status: "info",
    codes: ["host:R3.none-composed"],
    says: [/scenario quoted-hostile: the host composed none of its frames, though it composed quoted-benign's/],
  },
  {
    name: "the instruction written outside its frame too",
    build: () =>
      both(
        (held) =>
          `${blockOf(held)}Flagged: ${held
            .filter(hostile)
            .map(content)
            .join("")
            .split("\n")
            .find((l) => l.startsWith("SYSTEM"))}\n`,
      ),
    status: "warn",
    codes: ["host:R3.instruction-outside"],
    says: [/the instruction-shaped line of "fixture:quote-b" .* is written outside that frame's content too, at character \d+/],
  },
  {
    name: "every content cut to 200 characters",
    build: () => both((held) => blockOf(held.map((h) => ({ ...h, frame: { ...h.frame, content: content(h).slice(0, 200) } })))),
    status: "warn",
    codes: ["host:R3.cut-short"],
    says: [/is cut short: the marker it opens with \(cgpmark-rs-02\) is in the block and the one it closes with \(cgpmark-re-02\) is not/],
  },
  {
    name: "every frame written twice: the hostile content cannot be cut out of the block",
    build: () => both((held) => cdata(true)([...held, ...held])),
    status: "warn",
    codes: ["host:R3.garbled"],
    says: [/cannot be cut out of the block: the marker it opens with \(cgpmark-rs-02\) is there 2 times, the one it closes with \(cgpmark-re-02\) 2 times/],
  },
  {
    name: "no block at all",
    build: () => both(() => undefined),
    status: "skip",
    says: [/the host wrote no context block: name \{context\}/],
  },
]);
