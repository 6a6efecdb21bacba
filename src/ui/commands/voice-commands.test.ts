import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startBlenderAddonServer } from "../../../tests/support/blender-addon-server.js";
import { test } from "../../../tests/support/command-layer-fixture.js";
import { describe, expect } from "../../../tests/support/fixtures.js";
import { userWords } from "../../../tests/support/llm-server.js";
import { startTranscriptionServer } from "../../../tests/support/transcription-server.js";
import { NO_RECORDER } from "../voice/recorder.js";

/** sox standing in for a microphone: a tone (a voice) for `seconds`, as 16 kHz mono 16-bit WAV. */
const microphone = (seconds: number, after = "") =>
  `sox -n -r 16000 -c 1 -b 16 {file} synth ${seconds} sine 440${after}`;

const until = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe("!v: one recording, sent as the user's message", () => {
  test("records through MARVIN_RECORD_COMMAND, transcribes the WAV, and the transcript reaches the model", async ({
    openLayer,
    httpServers,
    tempDirs,
  }) => {
    const whisper = await startTranscriptionServer(httpServers, ["What's the weather in Bern?"]);
    const seen = join(await tempDirs.make("marvin-recorder-"), "env.txt");
    const { layer, host, server } = await openLayer([{ text: "Sunny." }], {
      MARVIN_RECORD_COMMAND: `env > '${seen}'; ${microphone(1)}`,
      MARVIN_WHISPER_URL: whisper.server.origin,
      MARVIN_WHISPER_API_KEY: "whisper-key",
      MARVIN_WHISPER_LANGUAGE: "en",
      WHISPER_MODEL: "whisper-large-v3-turbo",
      GROQ_API_KEY: "groq-secret",
    });
    const result = await layer.handle("!v 3");
    expect(result.type).toBe("submitted");
    if (result.type === "submitted") expect(await result.done).toMatchObject({ text: "Sunny." });
    expect(host.systemMessages[0]).toBe("🎤 Recording for 3 s… (Esc stops)");
    expect(host.submitted).toEqual(["voice: What's the weather in Bern?"]);
    expect(userWords(server.requests[0]!.body.messages.at(-1)!.content)).toBe("What's the weather in Bern?");
    const [upload] = whisper.uploads;
    expect(upload!.fields).toEqual({ model: "whisper-large-v3-turbo", response_format: "json", language: "en" });
    expect(upload!.authorization).toBe("Bearer whisper-key");
    expect({ name: upload!.fileName, type: upload!.fileType }).toEqual({ name: "speech.wav", type: "audio/wav" });
    // The recorder gets no secrets.
    expect(readFileSync(seen, "utf8")).not.toMatch(/groq-secret|whisper-key|test-key/);
  });

  test("stops a recorder that keeps running once the N seconds are up", async ({ openLayer, httpServers }) => {
    const whisper = await startTranscriptionServer(httpServers, ["hello"]);
    const { layer, host } = await openLayer([{ text: "Hi." }], {
      MARVIN_RECORD_COMMAND: `${microphone(1)} && exec sleep 60`,
      MARVIN_WHISPER_URL: whisper.server.origin,
    });
    const started = Date.now();
    const result = await layer.handle("!v 1");
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(result.type).toBe("submitted");
    if (result.type === "submitted") await result.done;
    expect(host.submitted).toEqual(["voice: hello"]);
    expect(whisper.uploads[0]!.authorization).toBeUndefined();
  });

  test("takes MARVIN_WHISPER_URL as the server or as its full transcription endpoint", async ({
    openLayer,
    httpServers,
  }) => {
    for (const path of ["", "/", "/v1", "/v1/audio/transcriptions", "/v1/audio/transcriptions/"]) {
      const whisper = await startTranscriptionServer(httpServers, [`via '${path}'`]);
      const { layer, host } = await openLayer([{ text: "Heard." }], {
        MARVIN_RECORD_COMMAND: microphone(1),
        MARVIN_WHISPER_URL: `${whisper.server.origin}${path}`,
      });
      const result = await layer.handle("!v 1");
      if (result.type === "submitted") await result.done;
      expect(host.submitted).toEqual([`voice: via '${path}'`]);
    }
  });

  test("says what to install or set when there is no recorder or no key", async ({ openLayer, tempDirs }) => {
    const emptyPath = await tempDirs.make("marvin-no-programs-");
    const { layer, host, server } = await openLayer([], { PATH: emptyPath, GROQ_API_KEY: "groq-key" });
    await layer.handle("!v");
    expect(host.lastSystem).toBe(NO_RECORDER);
    expect(NO_RECORDER).toMatch(/install sox .* or set MARVIN_RECORD_COMMAND\.$/);
    const withoutKey = await openLayer([], { MARVIN_RECORD_COMMAND: microphone(1) });
    await withoutKey.layer.handle("!voice");
    expect(withoutKey.host.lastSystem).toMatch(/^Voice input needs GROQ_API_KEY .* or MARVIN_WHISPER_URL for another/);
    expect(withoutKey.layer.voiceListening).toBe(false);
    await layer.handle("!v 0");
    expect(host.lastSystem).toBe("Usage: !v [SECONDS] records 1 to 300 seconds (5 without a number).");
    expect(server.requests).toHaveLength(0);
  });

  test("passes on what the transcription server objected to", async ({ openLayer, httpServers }) => {
    const whisper = await startTranscriptionServer(httpServers, ["never"]);
    const { layer, host, server } = await openLayer([], {
      MARVIN_RECORD_COMMAND: "sox -n -r 44100 -c 2 -b 16 {file} synth 1 sine 440",
      MARVIN_WHISPER_URL: whisper.server.origin,
    });
    expect(await layer.handle("!v 2")).toEqual({ type: "handled" });
    expect(host.lastSystem).toMatch(/^Voice input failed: .*the audio is 44100 Hz, 2 channels, 16 bit/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("!voice: continuous voice input", () => {
  test("sends each turn when the speaker pauses, listens again, and stops on !voice", async ({
    openLayer,
    httpServers,
  }) => {
    const whisper = await startTranscriptionServer(httpServers, ["first thought", "second thought"]);
    const { layer, host, server } = await openLayer([{ text: "Noted." }, { text: "Noted again." }], {
      // A second of speech, two of silence, then the microphone stays open: only the pause ends the turn.
      MARVIN_RECORD_COMMAND: `${microphone(1, " pad 0.3 2")} && exec sleep 60`,
      MARVIN_WHISPER_URL: whisper.server.origin,
    });
    expect(await layer.handle("!voice")).toEqual({ type: "handled" });
    expect(layer.voiceListening).toBe(true);
    expect(host.lastSystem).toBe("🎤 Listening: speak, and pause to send. !voice or Esc stops.");
    await until(() => server.requests.length === 2, "two turns to reach the model");
    await until(() => host.submitted.length === 2 && !host.systemMessages.includes("Voice input off."), "answers");
    expect(host.submitted).toEqual(["voice: first thought", "voice: second thought"]);
    expect(userWords(server.requests[1]!.body.messages.at(-1)!.content)).toBe("second thought");
    await layer.handle("!voice");
    await until(() => !layer.voiceListening, "listening to stop");
    await until(() => host.lastSystem === "Voice input off.", "the note that voice input is off");
    expect(host.stateChanges).toBeGreaterThanOrEqual(2);
  });

  test("Esc (stopVoice) ends it while it waits for speech", async ({ openLayer, httpServers }) => {
    const whisper = await startTranscriptionServer(httpServers, []);
    const { layer, host } = await openLayer([], {
      MARVIN_RECORD_COMMAND: "sox -n -r 16000 -c 1 -b 16 {file} trim 0 1 && exec sleep 60",
      MARVIN_WHISPER_URL: whisper.server.origin,
    });
    await layer.handle("!voice");
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(layer.stopVoice()).toBe(true);
    await until(() => host.lastSystem === "Voice input off.", "voice input to stop");
    expect(layer.voiceListening).toBe(false);
    expect(whisper.uploads).toEqual([]);
  });
});

describe("!blender", () => {
  test("says whether the Blender MCP add-on answers", async ({ openLayer }) => {
    const blender = await startBlenderAddonServer(() => ({
      status: "success",
      result: { name: "Scene", object_count: 3, materials_count: 1, objects: [] },
    }));
    try {
      const { layer, host } = await openLayer([], { BLENDER_MCP_PORT: String(blender.port) });
      await layer.handle("!blender");
      expect(host.lastSystem).toBe(
        `Blender answers at 127.0.0.1:${blender.port} (the blender_ tools can use it). Blender scene "Scene": ` +
          "3 objects (the first 0), 1 materials.",
      );
    } finally {
      await blender.close();
    }
    const { layer, host } = await openLayer([], { BLENDER_MCP_PORT: String(blender.port) });
    await layer.handle("!blender");
    expect(host.lastSystem).toMatch(/^Blender is not answering at 127\.0\.0\.1:\d+ \(ECONNREFUSED\): start Blender/);
  });
});
