import { join } from "node:path";
import type { Env } from "../../shared/env.js";
import { errorMessage } from "../../shared/error-message.js";
import { withScratchDir } from "../../shared/scratch-dir.js";
import { sleep } from "../../shared/sleep.js";
import { findRecorder, type RecordedTurn, type Recorder, recordTurn, type TurnEnd } from "./recorder.js";
import { transcribe, transcriptionProblem } from "./transcribe.js";

/** Longest turn in continuous mode: a recording that never pauses is sent after this. */
const MAX_TURN_SECONDS = 60;
/** Wait after a turn without speech before the next, so a recorder that ends at once does not spin. */
const SILENT_TURN_WAIT_MS = 500;

interface VoiceHost {
  env: Env;
  /** One system message. */
  say(text: string): void;
  /** Listening started or stopped: refresh the status line. */
  changed(): void;
  /** Sends a transcript as the user's message; settles when its answer is complete. */
  send(text: string): Promise<unknown>;
}

/**
 * Voice input (seed 002 §2.1): one recording of N seconds (`!v N`), or continuous mode (`!voice`) that
 * records until a pause, transcribes, sends, and listens again until stopped.
 */
export class VoiceInput {
  private current: { controller: AbortController; continuous: boolean } | undefined;

  constructor(private readonly host: VoiceHost) {}

  /** True while continuous mode is on. */
  get listening(): boolean {
    return this.current?.continuous ?? false;
  }

  /** Stops a recording or continuous mode; false when neither runs. */
  stop(): boolean {
    if (!this.current) return false;
    this.current.controller.abort();
    return true;
  }

  /** Records `seconds`, then returns the transcript; undefined (after saying why) when there is none. */
  async once(seconds: number): Promise<string | undefined> {
    if (this.current) return void this.host.say(this.busyNote);
    const recorder = await this.ready();
    if (!recorder) return undefined;
    const controller = this.begin(false);
    const { signal } = controller;
    try {
      this.host.say(`🎤 Recording for ${seconds} s… (Esc stops)`);
      const turn = await this.record(recorder, { seconds }, signal);
      if (!turn) return void this.host.say("Recording stopped; nothing was sent.");
      const text = await transcribe(this.host.env, turn.audio, signal);
      if (!text) this.host.say("Heard nothing to send.");
      return text || undefined;
    } catch (error) {
      this.host.say(
        signal.aborted ? "Recording stopped; nothing was sent." : `Voice input failed: ${errorMessage(error)}`,
      );
      return undefined;
    } finally {
      this.end(controller);
    }
  }

  /** `!voice`: starts continuous mode, or stops it. */
  async toggle(): Promise<void> {
    if (this.current?.continuous) {
      this.stop();
      return;
    }
    if (this.current) return this.host.say(this.busyNote);
    const recorder = await this.ready();
    if (recorder) void this.listen(recorder);
  }

  private async listen(recorder: Recorder): Promise<void> {
    const controller = this.begin(true);
    const { signal } = controller;
    this.host.say("🎤 Listening: speak, and pause to send. !voice or Esc stops.");
    let failure: string | undefined;
    try {
      while (!signal.aborted) {
        const turn = await this.record(recorder, { pause: true, maxSeconds: MAX_TURN_SECONDS }, signal);
        if (!turn) break;
        if (!turn.speech) {
          await sleep(SILENT_TURN_WAIT_MS, signal).catch(() => undefined);
          continue;
        }
        const text = await transcribe(this.host.env, turn.audio, signal);
        if (text && !signal.aborted) await this.host.send(text);
      }
    } catch (error) {
      if (!signal.aborted) failure = errorMessage(error);
    } finally {
      this.end(controller);
    }
    this.host.say(failure ? `Voice input failed: ${failure} Continuous voice input is off.` : "Voice input off.");
  }

  private get busyNote(): string {
    return this.current?.continuous
      ? "Continuous voice input is on: just speak (!voice stops it)."
      : "A recording is running: wait for it, or press Esc to stop it.";
  }

  /** The recorder to use, after checking that a transcript can be made; undefined after saying what is missing. */
  private async ready(): Promise<Recorder | undefined> {
    const problem = transcriptionProblem(this.host.env);
    if (problem) return void this.host.say(problem);
    const recorder = await findRecorder(this.host.env);
    if (typeof recorder === "string") return void this.host.say(recorder);
    return recorder;
  }

  private record(recorder: Recorder, end: TurnEnd, signal: AbortSignal): Promise<RecordedTurn | undefined> {
    return withScratchDir("marvin-voice-", (dir) =>
      recordTurn(recorder, join(dir, "speech.wav"), end, this.host.env, signal),
    );
  }

  private begin(continuous: boolean): AbortController {
    const controller = new AbortController();
    this.current = { controller, continuous };
    this.host.changed();
    return controller;
  }

  private end(controller: AbortController): void {
    if (this.current?.controller !== controller) return;
    this.current = undefined;
    this.host.changed();
  }
}
