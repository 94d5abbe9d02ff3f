/** Words filled into lines of at most `width` columns, each after `indent` (a word longer than the room stands alone). */
export function wrap(text: string, width: number, indent = ""): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && indent.length + line.length + 1 + word.length > width) {
      out.push(indent + line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return line === "" ? out : [...out, indent + line];
}

/** Text made safe for one cell of a Markdown table: pipes escaped, line breaks and runs of whitespace one space. */
export const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\s+/g, " ");
