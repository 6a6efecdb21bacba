import type { ToolContext } from "../../kit/define-tool.js";

/** What a writer did: its text for the model, and the real paths of the files it left with new content. */
export interface Written {
  text: string;
  files: readonly string[];
}

/** The step every file writer ends with: the language servers' errors in the files as written join its text. */
export async function reportWritten(context: ToolContext, root: string, written: Written): Promise<string> {
  const diagnostics = await context.diagnostics.afterWrite(root, written.files);
  return diagnostics ? `${written.text}\n\n${diagnostics}` : written.text;
}
