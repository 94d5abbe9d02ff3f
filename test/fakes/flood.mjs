// Writes envelopes that answer nothing, as fast as the pipe takes them, forever.
const line = '{"type":"x","note":"flood"}\n'.repeat(256);
const pump = () => {
  while (process.stdout.write(line));
  process.stdout.once("drain", pump);
};
pump();
process.stdin.resume();
