import type { ToolContext } from "../../kit/define-tool.js";
import type { EditDetails } from "../../kit/file-edits.js";

/** What a writer did: its text for the model, the real paths of the files it left with new content, its diff. */
export interface Written {
  text: string;
  files: readonly string[];
  details: EditDetails;
}

/**
 * The step every file writer ends with: the language servers' errors in the files as written join its text; the
 * diff stays in the details, for the front ends, hooks and jsonl.
 */
export async function reportWritten(
  context: ToolContext,
  root: string,
  written: Written,
): Promise<{ text: string; details: EditDetails }> {
  const diagnostics = await context.diagnostics.afterWrite(root, written.files);
  return { text: diagnostics ? `${written.text}\n\n${diagnostics}` : written.text, details: written.details };
}
