/** A count in words, as every renderer says it: "1 check", "2 checks" ("1 failure is", "2 failures are"). */
export function counted(k: number, one: string, many = `${one}s`): string {
  return `${k} ${k === 1 ? one : many}`;
}
