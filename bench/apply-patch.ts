// apply_patch on a generated 5 MB file, through the real tool registry of the built marvin, taking turns with
// plain Node doing the least such an edit needs: read the file, replace the text, write it back.
// Each edit renames one line near the end; the file is put back, untimed, after each.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtModule } from "./built.js";
import { alternate, timed } from "./limits.js";
import { median, reportRatio } from "./stats.js";

type Registry = ReturnType<typeof import("../src/tools/index.js").createToolRegistry>;
type Context = ReturnType<typeof import("../src/session/standalone-tool-context.js").createToolContext>;

const TARGET_BYTES = 5 * 1024 * 1024;
const RUNS = 16;
const RATIO = 2;

function generateSource(): { text: string; lineCount: number } {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < TARGET_BYTES; index++) {
    const line =
      `export const value${index} = compute(${index}, ` +
      `"${((index * 2654435761) % 2 ** 32).toString(16)}"); // entry ${index}\n`;
    lines.push(line);
    size += line.length;
  }
  return { text: lines.join(""), lineCount: lines.length };
}

/** Times one edit of `file`, then puts its original `text` back, untimed: every edit meets the same file. */
function editTimer(file: string, text: string, edit: () => Promise<void>): () => Promise<number> {
  return async () => {
    const elapsed = await timed(edit);
    await writeFile(file, text);
    return elapsed;
  };
}

/** Plain Node's edit, the baseline: read the file, replace the text, write it back. */
async function plainEdit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, "utf8");
  if (!text.includes(from)) throw new Error("plain edit: the text to replace is missing");
  await writeFile(file, text.replace(from, to));
}

async function patch(registry: Registry, context: Context, args: string): Promise<void> {
  const outcome = await registry.execute("apply_patch", args, context);
  if (outcome.isError) throw new Error(`apply_patch failed: ${outcome.result}`);
}

export async function applyPatch(): Promise<void> {
  const { createToolRegistry } = await builtModule<typeof import("../src/tools/index.js")>("tools/index.js");
  const { createToolContext } = await builtModule<typeof import("../src/session/standalone-tool-context.js")>(
    "session/standalone-tool-context.js",
  );
  const dir = await mkdtemp(join(tmpdir(), "marvin-bench-apply-patch-"));
  try {
    const { text, lineCount } = generateSource();
    const file = join(dir, "big.ts");
    await writeFile(file, text);
    const registry = createToolRegistry();
    // A real tool context without a session: no language server, no checkpoints.
    const context = createToolContext({ home: dir, workingDir: dir, mode: { codingMode: true, nonInteractive: true } });
    const near = lineCount - 10;
    const oldLine = `export const value${near} = compute(${near},`;
    const newLine = `export const renamed${near} = compute(${near},`;
    const fullLine = (prefix: string) => text.split("\n")[near]!.replace(oldLine, prefix);
    const replace = JSON.stringify({ path: "big.ts", old_str: oldLine, new_str: newLine });
    const codex = [
      "*** Begin Patch",
      "*** Update File: big.ts",
      "@@",
      `-${fullLine(oldLine)}`,
      `+${fullLine(newLine)}`,
    ];
    const codexPatch = [...codex, "*** End Patch"].join("\n");
    const size = `${(text.length / 1024 / 1024).toFixed(1)} MB, ${lineCount.toLocaleString("en-US")} lines`;
    console.log(`file: ${size}; edit near the end; median of ${RUNS}`);

    const times = await alternate(RUNS, {
      plain: editTimer(file, text, () => plainEdit(file, oldLine, newLine)),
      replace: editTimer(file, text, () => patch(registry, context, replace)),
      codex: editTimer(file, text, () => patch(registry, context, codexPatch)),
    });
    const plain = { label: "plain read/replace/write", value: median(times.plain) };
    reportRatio("apply_patch old_str/new_str (5 MB)", median(times.replace), plain, RATIO);
    reportRatio("apply_patch Codex patch (5 MB)", median(times.codex), plain, RATIO);
    if ((await readFile(file, "utf8")) !== text) throw new Error("the file did not return to its original content");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
