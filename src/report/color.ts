import { Chalk, supportsColor, supportsColorStderr } from "chalk";

/**
 * chalk honours FORCE_COLOR and TTY detection but not NO_COLOR
 * (https://no-color.org); we do, and it wins.
 */
export function makeChalk(stream: NodeJS.WriteStream = process.stdout) {
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "";
  const support = stream === process.stderr ? supportsColorStderr : supportsColor;
  return new Chalk({ level: noColor || !support ? 0 : support.level });
}
