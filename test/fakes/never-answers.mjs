// Never answers anything, ignores end of input, and leaves a grandchild behind in its group.
import { spawn } from "node:child_process";
spawn(process.execPath, ["-e", "/* cgp-fake-grandchild */ setInterval(() => {}, 1 << 30)"], { stdio: "ignore" });
process.stdin.resume();
process.stdin.on("end", () => {});
setInterval(() => {}, 1 << 30);
