// One benchmark part, by name (run.ts starts each part this way, with its time limit).
import { pendingWaits } from "./limits.js";
import { PARTS } from "./parts.js";
import { recordFailure } from "./stats.js";

const part = PARTS.find((each) => each.name === process.argv[2]);
if (!part) throw new Error(`no benchmark part ${process.argv[2]}`);
// The runner's time limit ran out: say what the part was waiting for, then end.
process.on("SIGTERM", () => {
  const waits = pendingWaits();
  const at = waits.length > 0 ? `waiting for ${waits.join(", ")}` : "at work (no wait pending)";
  console.log(`${part.name} stopped at its time limit, ${at}`);
  recordFailure(`stopped at its time limit, ${at}`);
  process.exit(1);
});
try {
  await part.run();
  // Whatever a part left open (a server, a timer) must not keep it from ending.
  process.exit(0);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.log(`${part.name} failed: ${message}`);
  recordFailure(message);
  process.exit(1);
}
