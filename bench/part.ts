// One benchmark part, by name (run.ts starts each part this way, with its time limit).
import { PARTS } from "./parts.js";

const part = PARTS.find((each) => each.name === process.argv[2]);
if (!part) throw new Error(`no benchmark part ${process.argv[2]}`);
try {
  await part.run();
  // Whatever a part left open (a server, a timer) must not keep it from ending.
  process.exit(0);
} catch (error) {
  console.log(`${part.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
