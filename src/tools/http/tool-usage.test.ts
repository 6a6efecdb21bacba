import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { LocalHttpServers, sendJson } from "../../../tests/support/local-http-server.js";
import { registryOf, TempDirs } from "../../../tests/support/test-session.js";
import { createToolContext } from "../../session/standalone-tool-context.js";
import { defineTool } from "../define-tool.js";
import { type ExternalService, http } from "./index.js";

const servers = new LocalHttpServers();
const dirs = new TempDirs();
afterEach(async () => {
  await servers.closeAll();
  await dirs.cleanup();
});

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

async function call(env: Record<string, string>) {
  const registry = registryOf([currentTemperature]);
  const args = JSON.stringify({ latitude: 46.95, longitude: 7.45 });
  return registry.execute("current_temperature", args, createToolContext({ home: await dirs.make(), env }));
}

describe("a service tool through the tool registry", () => {
  it("reads the service through its setting", async () => {
    const answer = { current: { temperature_2m: 12.5 } };
    const server = await servers.start((_request, response) => sendJson(response, answer));
    expect(await call({ MARVIN_WEATHER_TEST_URL: server.origin })).toEqual({ result: "12.5 °C", isError: false });
    expect(server.requests[0]!.url).toBe("/v1/forecast?latitude=46.95&longitude=7.45&current=temperature_2m");
  });

  it("hands the client's message to the model as it is", async () => {
    const server = await servers.start((_request, response) => sendJson(response, {}, 503));
    expect(await call({ MARVIN_WEATHER_TEST_URL: server.origin })).toEqual({
      result:
        "Error in current_temperature: Weather Test answered HTTP 503 (Service Unavailable) — try again in a minute.",
      isError: true,
    });
  });

  it("stops the request when the tool's own time limit ends it", async () => {
    const closed = { count: 0 };
    const server = await servers.start((_request, response) => void response.on("close", () => closed.count++));
    const outcome = await call({ MARVIN_WEATHER_TEST_URL: server.origin });
    expect(outcome.result).toBe("Tool current_temperature timed out after 1s and was stopped. Try a smaller request.");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed.count).toBe(1);
  });
});
