// Bundles the CLI into dist/bin/: one ES module per lazily loaded part (UI, provider SDK
// adapters, tokenizer), so a start reads a few large files instead of hundreds of small ones.

import { rm } from "node:fs/promises";
import { build } from "esbuild";

const outdir = "dist/bin";
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { marvin: "src/cli/marvin.ts" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  // The optional Copilot SDK (native runtime) and playwright-core (which loads its own files at run time) stay
  // in node_modules; Ink's devtools hook is never used.
  external: ["@github/copilot-sdk", "react-devtools-core", "playwright-core"],
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: {
    js:
      'import { createRequire as __marvinCreateRequire } from "node:module"; const require = ' +
      "__marvinCreateRequire(import.meta.url);",
  },
  legalComments: "none",
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
});
