import { Chalk, supportsColor } from "chalk";

/** chalk does not honour NO_COLOR (https://no-color.org) by itself; we do. */
export function makeChalk(stream: NodeJS.WriteStream = process.stdout) {
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "";
  const level = noColor || !stream.isTTY ? 0 : supportsColor ? supportsColor.level : 0;
  return new Chalk({ level });
}
