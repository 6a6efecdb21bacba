// The least a streaming chat client can do: POST to an OpenAI-compatible server, the streamed text to stdout;
// when the answer calls tools, it answers each call with "[]" and asks again, as an agent loop must.
// The benchmarks time Marvin against it, against the same server in the same run. Usage: URL PROMPT
const [url, prompt] = process.argv.slice(2);
const messages = [{ role: "user", content: prompt }];

/** One streamed answer: its text written out as it comes, its tool calls gathered. */
async function ask() {
  const response = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify({ model: "gpt-4o-mini", stream: true, messages }),
  });
  const decoder = new TextDecoder();
  const calls = [];
  let pending = "";
  for await (const chunk of response.body) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
      const delta = JSON.parse(line.slice(6)).choices?.[0]?.delta;
      if (delta?.content) process.stdout.write(delta.content);
      for (const part of delta?.tool_calls ?? []) {
        calls[part.index] ??= { id: part.id, type: "function", function: { name: part.function.name, arguments: "" } };
        calls[part.index].function.arguments += part.function.arguments ?? "";
      }
    }
  }
  return calls;
}

for (let calls = await ask(); calls.length > 0; calls = await ask()) {
  messages.push({ role: "assistant", content: null, tool_calls: calls });
  for (const call of calls) messages.push({ role: "tool", tool_call_id: call.id, content: "[]" });
}
process.stdout.write("\n");
