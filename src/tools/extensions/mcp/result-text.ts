/** One content block of an MCP tool result (spec 2025-06-18, `CallToolResult.content`), read loosely. */
interface ContentBlock {
  type?: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  description?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/** The parts of a `CallToolResult` Marvin reads. */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

/** Size of base64 data, as a person would say it. */
function decodedSize(base64: string | undefined): string {
  const text = base64 ?? "";
  const bytes = Math.floor((text.length * 3) / 4) - (text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0);
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text ?? "";
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType ?? "unknown type"}, ${decodedSize(block.data)}; not shown to the model]`;
    case "resource_link": {
      const about = block.description ? ` — ${block.description}` : "";
      return `[resource link: ${block.name ?? block.uri ?? "unnamed"} <${block.uri ?? "no uri"}>${about}]`;
    }
    case "resource": {
      const resource = block.resource ?? {};
      if (typeof resource.text === "string") return `[resource ${resource.uri ?? ""}]\n${resource.text}`;
      const type = resource.mimeType ?? "binary";
      return `[resource ${resource.uri ?? ""}: ${type}, ${decodedSize(resource.blob)}; not shown to the model]`;
    }
    default:
      return `[${block.type ?? "unknown"} content; not shown to the model]`;
  }
}

/** The result as text for the model: text as it is, images and resources summarised in one line each. */
export function resultText(result: McpCallResult): string {
  const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const parts = blocks.map(describeBlock).filter((part) => part !== "");
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join("\n") || "(the tool returned no content)";
}
