import { z } from "zod";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { sendJson } from "../../../../tests/support/local-http-server.js";
import { registryOf } from "../../../../tests/support/test-session.js";
import { createToolContext } from "../../../session/standalone-tool-context.js";
import { defineTool } from "../define-tool.js";
import { type ExternalService, http } from "./index.js";

const WEATHER: ExternalService = {
  name: "Weather Test",
  envVar: "MARVIN_WEATHER_TEST_URL",
  defaultUrl: "http://127.0.0.1:9",
};

// A tool written the way service tools are meant to be written.
const currentTemperature = defineTool({
  name: "current_temperature",
  description: "Current temperature at a place.",
  parameters: z.object({ latitude: z.number(), longitude: z.number() }),
  effect: "read",
  timeoutMs: 1_000,
  handler: async ({ latitude, longitude }, context) => {
    const answer = z.object({ current: z.object({ temperature_2m: z.number() }) });
    const query = { latitude, longitude, current: "temperature_2m" };
    const data = await http(context).getJson(WEATHER, "/v1/forecast", query, answer);
    return `${data.current.temperature_2m} °C`;
  },
});

async function call(home: string, env: Record<string, string>) {
  const registry = registryOf([currentTemperature]);
  const args = JSON.stringify({ latitude: 46.95, longitude: 7.45 });
  return registry.execute("current_temperature", args, createToolContext({ home, env }));
}

describe("a service tool through the tool registry", () => {
  test("reads the service through its setting", async ({ httpServers, home }) => {
    const answer = { current: { temperature_2m: 12.5 } };
    const server = await httpServers.start((_request, response) => sendJson(response, answer));
    expect(await call(home, { MARVIN_WEATHER_TEST_URL: server.origin })).toEqual({ result: "12.5 °C", isError: false });
    expect(server.requests[0]!.url).toBe("/v1/forecast?latitude=46.95&longitude=7.45&current=temperature_2m");
  });

  test("hands the client's message to the model as it is", async ({ httpServers, home }) => {
    const server = await httpServers.start((_request, response) => sendJson(response, {}, 503));
    expect(await call(home, { MARVIN_WEATHER_TEST_URL: server.origin })).toEqual({
      result:
        "Error in current_temperature: Weather Test answered HTTP 503 (Service Unavailable) — try again in a minute.",
      isError: true,
    });
  });

  test("stops the request when the tool's own time limit ends it", async ({ httpServers, home }) => {
    const closed = { count: 0 };
    const server = await httpServers.start((_request, response) => void response.on("close", () => closed.count++));
    const outcome = await call(home, { MARVIN_WEATHER_TEST_URL: server.origin });
    expect(outcome.result).toBe("Tool current_temperature timed out after 1s and was stopped. Try a smaller request.");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed.count).toBe(1);
  });
});
