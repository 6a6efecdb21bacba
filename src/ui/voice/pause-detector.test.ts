import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../../../tests/support/fixtures.js";
import { PauseDetector } from "./pause-detector.js";
import { readWavHeader } from "./wav.js";

/** Feeds a WAV file made by sox (`effects` after `synth`) to a detector, 100 ms at a time as a recording grows. */
function listen(dir: string, effects: string[]): { detector: PauseDetector; pausedAtMs: number | undefined } {
  const file = join(dir, "speech.wav");
  execFileSync("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", file, "synth", ...effects]);
  const audio = readFileSync(file);
  const format = readWavHeader(audio)!;
  expect(format).toMatchObject({ channels: 1, sampleRate: 16_000, bitsPerSample: 16 });
  const samples = new Int16Array(
    audio.buffer,
    audio.byteOffset + format.dataStart,
    (audio.length - format.dataStart) / 2,
  );
  const detector = new PauseDetector(format.sampleRate);
  for (let start = 0; start < samples.length; start += 1_600) {
    detector.push(samples.subarray(start, start + 1_600));
    if (detector.paused) return { detector, pausedAtMs: (start + 1_600) / 16 };
  }
  return { detector, pausedAtMs: undefined };
}

describe("PauseDetector", () => {
  test("ends a turn 1.2 s after the speech stops", async ({ tempDirs }) => {
    const { pausedAtMs } = listen(await tempDirs.make("marvin-pause-"), ["1", "sine", "440", "pad", "0.5", "3"]);
    expect(pausedAtMs).toBe(2_700);
  });

  test("waits through silence for speech, and through speech for a pause", async ({ tempDirs }) => {
    const dir = await tempDirs.make("marvin-pause-");
    const quiet = listen(dir, ["3", "sine", "440", "vol", "0.001"]);
    expect({ heard: quiet.detector.heardSpeech, paused: quiet.pausedAtMs }).toEqual({
      heard: false,
      paused: undefined,
    });
    const talking = listen(dir, ["3", "sine", "440"]);
    expect({ heard: talking.detector.heardSpeech, paused: talking.pausedAtMs }).toEqual({
      heard: true,
      paused: undefined,
    });
  });
});
