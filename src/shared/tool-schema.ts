/** Tool declaration as sent to the model (OpenAI function-calling format). */
export interface ToolSchema {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
