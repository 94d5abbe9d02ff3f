import { closest, distance } from "fastest-levenshtein";

/** yargs' "Unknown argument(s): x, y", with the nearest option named for each (a typo's likely meaning); an unknown command, named. */
export function suggest(msg: string, options: string[], command: string | undefined, given: readonly string[]): string {
  const cmd = /^Did you mean (.+)\?$/.exec(msg);
  if (cmd) return `unknown command ${JSON.stringify(command)}: did you mean ${cmd[1]}?`;
  // yargs' "Invalid values: Argument: as, Given: "fram", Choices: …": the nearest choice named.
  const bad = /Argument: ([\w-]+), Given: "([^"]*)", Choices: (.+)$/m.exec(msg);
  if (bad) {
    const near = nearest(
      bad[2]!,
      bad[3]!.split(", ").map((c) => c.replace(/^"|"$/g, "")),
    );
    return near === undefined ? msg : `${msg} (--${bad[1]} ${bad[2]}: did you mean --${bad[1]} ${near}?)`;
  }
  const m = /^Unknown arguments?: (.+)$/.exec(msg);
  if (!m) return msg;
  const known = options.filter((o) => o.length > 1 && o !== "$0");
  const hints = m[1]!
    .split(", ")
    .map((u) => {
      const name = u.replace(/^-+/, "").replace(/=.*$/, "");
      const near = nearest(name, known);
      return near !== undefined ? `--${name}: did you mean --${near}?` : undefined;
    })
    .filter((h): h is string => h !== undefined);
  // Words that are no option, after a command that takes a command line: the "--" before it was forgotten.
  const words = m[1]!.split(", ").filter((u) => given.includes(u) && u !== command);
  // Only where every unknown word was given as such: an unknown option may have taken the word after it as its value.
  if (words.length > 0 && hints.length === 0 && words.length === m[1]!.split(", ").length && command !== undefined && TAKES_COMMAND.has(command)) {
    const line = words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");
    hints.push(`a command line goes after --, as in: cgp-conform ${command} -- ${line}`);
  }
  return hints.length > 0 ? `${msg} (${hints.join("; ")})` : msg;
}

/** The known name nearest to `name` (case aside), where it is near enough to be a typo of it and is not `name` itself. */
export function nearest(name: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = known.map((k) => k.toLowerCase());
  const want = name.toLowerCase();
  const near = closest(want, lower);
  const spelled = known[lower.indexOf(near)]!;
  return spelled !== name && distance(want, near) <= Math.max(2, Math.floor(want.length / 3)) ? spelled : undefined;
}

/** The commands whose last part is a command line given after "--". */
const TAKES_COMMAND = new Set(["stdio", "host", "reference-host", "replay"]);
