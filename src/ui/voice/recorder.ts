import { type ChildProcess, spawn } from "node:child_process";
import { open, readFile, stat } from "node:fs/promises";
import { toolChildEnv } from "../../shared/child-env.js";
import type { Env } from "../../shared/env.js";
import { programOnPath } from "../../shared/program-on-path.js";
import { sleep } from "../../shared/sleep.js";
import { PauseDetector } from "./pause-detector.js";
import { readWavHeader, type WavFormat } from "./wav.js";

/** A way to record from the microphone into a WAV file until stopped with SIGINT. */
export interface Recorder {
  /** What to name in messages: "rec (sox)", "MARVIN_RECORD_COMMAND". */
  label: string;
  /** The program and its arguments for a recording into `file`. */
  command(file: string): { program: string; args: string[] };
}

const SAMPLE_RATE = "16000";

/** The recorders Marvin looks for, in order: all write 16 kHz mono 16-bit WAV and finish the file on SIGINT. */
function builtInRecorders(
  platform: NodeJS.Platform,
): Array<{ program: string; label: string; args: (file: string) => string[] }> {
  const soxOutput = (file: string) => ["-c", "1", "-r", SAMPLE_RATE, "-b", "16", file];
  const ffmpegInput = platform === "darwin" ? ["-f", "avfoundation", "-i", ":0"] : ["-f", "alsa", "-i", "default"];
  return [
    { program: "rec", label: "rec (sox)", args: (file) => ["-q", ...soxOutput(file)] },
    { program: "sox", label: "sox", args: (file) => ["-q", "-d", ...soxOutput(file)] },
    {
      program: "arecord",
      label: "arecord",
      args: (file) => ["-q", "-f", "S16_LE", "-r", SAMPLE_RATE, "-c", "1", "-t", "wav", file],
    },
    {
      program: "ffmpeg",
      label: "ffmpeg",
      args: (file) => [
        ...["-loglevel", "error", "-nostdin", "-y", ...ffmpegInput],
        ...["-ac", "1", "-ar", SAMPLE_RATE, "-c:a", "pcm_s16le", file],
      ],
    },
  ];
}

const PLACEHOLDER = "{file}";

export const NO_RECORDER =
  "Voice input needs a recorder: install sox (apt install sox, brew install sox), arecord (apt install " +
  "alsa-utils) or ffmpeg, or set MARVIN_RECORD_COMMAND.";

/**
 * MARVIN_RECORD_COMMAND (a shell command line with {file} where the WAV goes), else the first of rec, sox,
 * arecord and ffmpeg on the PATH; a string says what is wrong.
 */
export async function findRecorder(env: Env, platform: NodeJS.Platform = process.platform): Promise<Recorder | string> {
  const custom = env.MARVIN_RECORD_COMMAND?.trim();
  if (custom) {
    if (!custom.includes(PLACEHOLDER))
      return (
        `MARVIN_RECORD_COMMAND has no ${PLACEHOLDER}: write it where the recording goes, e.g. ` +
        `'arecord -q -f S16_LE -r 16000 -c 1 ${PLACEHOLDER}'.`
      );
    return {
      label: "MARVIN_RECORD_COMMAND",
      command: (file) => ({ program: "/bin/sh", args: ["-c", custom.replaceAll(PLACEHOLDER, `'${file}'`)] }),
    };
  }
  for (const recorder of builtInRecorders(platform)) {
    if (await programOnPath(env, recorder.program))
      return { label: recorder.label, command: (file) => ({ program: recorder.program, args: recorder.args(file) }) };
  }
  return NO_RECORDER;
}

/** How a turn ends: after a fixed time (`!v N`), or at a pause after speech (continuous mode). */
export type TurnEnd = { seconds: number } | { pause: true; maxSeconds: number };

export interface RecordedTurn {
  /** The WAV file as the recorder left it. */
  audio: Buffer;
  /** False when the pause detector heard no speech (the turn can be skipped). */
  speech: boolean;
}

/** How often a growing recording is read for the pause detector. */
const POLL_MS = 150;
/** Time a recorder gets to finish its file after SIGINT before it is killed. */
const STOP_GRACE_MS = 3_000;

/** Follows a WAV file as the recorder writes it, feeding its samples to a pause detector. */
class RecordingFollower {
  private format: WavFormat | undefined;
  private detector: PauseDetector | undefined;
  private position = 0;

  constructor(private readonly file: string) {}

  get heardSpeech(): boolean {
    return this.detector?.heardSpeech ?? false;
  }

  get paused(): boolean {
    return this.detector?.paused ?? false;
  }

  /** Reads what was added since the last call; calls must not overlap. */
  async poll(): Promise<void> {
    const handle = await open(this.file, "r").catch(() => undefined);
    if (!handle) return;
    try {
      if (!this.format) {
        const header = Buffer.alloc(4096);
        const { bytesRead } = await handle.read(header, 0, header.length, 0);
        this.format = readWavHeader(header.subarray(0, bytesRead));
        if (!this.format) return;
        this.position = this.format.dataStart;
        if (this.format.bitsPerSample === 16)
          this.detector = new PauseDetector(this.format.sampleRate * this.format.channels);
      }
      if (!this.detector) return;
      const { size } = await handle.stat();
      const length = (size - this.position) & ~1;
      if (length <= 0) return;
      const bytes = Buffer.alloc(length);
      const { bytesRead } = await handle.read(bytes, 0, length, this.position);
      const whole = bytesRead & ~1;
      this.position += whole;
      this.detector.push(new Int16Array(bytes.buffer, bytes.byteOffset, whole / 2));
    } finally {
      await handle.close();
    }
  }
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/**
 * Records one turn into `file` (which must not exist yet): starts the recorder in a process group of its
 * own, without secrets, and stops it with SIGINT when the turn ends or `signal` aborts. Undefined when
 * aborted; throws with the recorder's own words when it made no usable recording.
 */
export async function recordTurn(
  recorder: Recorder,
  file: string,
  end: TurnEnd,
  env: Env,
  signal: AbortSignal,
): Promise<RecordedTurn | undefined> {
  const { program, args } = recorder.command(file);
  const child = spawn(program, args, {
    env: toolChildEnv(env),
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let errors = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (errors = (errors + chunk).slice(-2_000)));
  const follower = new RecordingFollower(file);
  let stopping: NodeJS.Timeout | undefined;
  const stop = () => {
    if (stopping) return;
    stopGroup(child, "SIGINT");
    stopping = setTimeout(() => stopGroup(child, "SIGKILL"), STOP_GRACE_MS);
  };
  const seconds = "seconds" in end ? end.seconds : end.maxSeconds;
  const timer = setTimeout(stop, seconds * 1000);
  let recording = true;
  const watchForPause = async () => {
    while (recording) {
      await sleep(POLL_MS);
      await follower.poll();
      if (follower.paused) stop();
    }
  };
  const watching = "pause" in end ? watchForPause() : Promise.resolve();
  signal.addEventListener("abort", stop, { once: true });
  const exit = await new Promise<{ code: number | null; failed?: string }>((resolve) => {
    child.on("error", (error) => resolve({ code: null, failed: error.message }));
    child.on("close", (code) => resolve({ code }));
  });
  clearTimeout(timer);
  clearTimeout(stopping);
  recording = false;
  await watching;
  signal.removeEventListener("abort", stop);
  if (signal.aborted) return undefined;
  if (exit.failed) throw new Error(`Could not start ${recorder.label}: ${exit.failed}`);
  const size = (await stat(file).catch(() => undefined))?.size ?? 0;
  const said = errors.trim().split("\n").slice(-3).join(" ").trim();
  if (size <= 44)
    throw new Error(
      `${recorder.label} recorded nothing${exit.code ? ` (exit code ${exit.code})` : ""}` +
        `${said ? `: ${said}` : "."} Check the microphone, or set MARVIN_RECORD_COMMAND.`,
    );
  await follower.poll();
  return { audio: await readFile(file), speech: "pause" in end ? follower.heardSpeech : true };
}
