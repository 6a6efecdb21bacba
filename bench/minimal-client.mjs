// The least a streaming chat client can do: one POST to an OpenAI-compatible server, the streamed text to
// stdout. The benchmarks time a whole Marvin turn against it, run against the same server in the same run.
const [url, prompt] = process.argv.slice(2);
const response = await fetch(`${url}/chat/completions`, {
  method: "POST",
  headers: { "content-type": "application/json", authorization: "Bearer test-key" },
  body: JSON.stringify({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: prompt }] }),
});
const decoder = new TextDecoder();
let pending = "";
for await (const chunk of response.body) {
  pending += decoder.decode(chunk, { stream: true });
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    const text = JSON.parse(line.slice(6)).choices?.[0]?.delta?.content;
    if (text) process.stdout.write(text);
  }
}
process.stdout.write("\n");
