import { register } from "node:module";

/**
 * Module hooks (run by Node in a loader thread) that strip the types of `.ts` and `.mts` files with esbuild's
 * transform, for a Node that does not do it itself. Passed as a data: URL, so the bundle needs no file of them.
 */
const HOOKS = `
let transform;
export async function initialize({ esbuildUrl }) {
  const esbuild = await import(esbuildUrl);
  transform = (esbuild.transform ?? esbuild.default.transform);
}
export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !/\\.m?ts$/.test(new URL(url).pathname)) return nextLoad(url, context);
  const { readFile } = await import("node:fs/promises");
  const { fileURLToPath } = await import("node:url");
  const source = await readFile(new URL(url), "utf8");
  const options = { loader: "ts", format: "esm", target: "node20", sourcefile: fileURLToPath(url) };
  const { code } = await transform(source, options);
  return { format: "module", source: code, shortCircuit: true };
}
`;

let registered = false;

/** Node strips TypeScript types itself from 22.18 / 23.6 on (`process.features.typescript`). */
function nodeRunsTypeScript(): boolean {
  const features = process.features as typeof process.features & { typescript?: string | false };
  return Boolean(features.typescript);
}

/** Makes `import()` of a `.ts` or `.mts` file work on every supported Node; once per process. */
export function loadTypeScriptModules(): void {
  if (registered || nodeRunsTypeScript()) return;
  registered = true;
  const esbuildUrl = import.meta.resolve("esbuild");
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { esbuildUrl } });
}
