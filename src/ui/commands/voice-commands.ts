import type { Env } from "../../shared/env.js";
import { VoiceInput } from "../voice/voice-input.js";
import { type CommandOutput, HANDLED } from "./command-output.js";
import type { CommandResult } from "./command-result.js";
import type { CommandHost } from "./types.js";

/** Longest `!v N` recording. */
const MAX_VOICE_SECONDS = 300;

/** `!v [N]` (one recording sent as a message) and `!voice` (continuous voice input). */
export class VoiceCommands {
  private readonly voice: VoiceInput;

  constructor(
    env: Env,
    host: CommandHost,
    private readonly output: CommandOutput,
  ) {
    this.voice = new VoiceInput({
      env,
      say: (text) => host.system(text),
      changed: () => host.stateChanged?.(),
      send: (text) => output.send(text, "voice"),
    });
  }

  /** `!v [N]`: records N seconds and sends the transcript. */
  async recordVoice(seconds: number): Promise<CommandResult> {
    if (seconds < 1 || seconds > MAX_VOICE_SECONDS)
      return this.output.say(`Usage: !v [SECONDS] records 1 to ${MAX_VOICE_SECONDS} seconds (5 without a number).`);
    const transcript = await this.voice.once(seconds);
    return transcript ? this.output.submit(transcript, "voice") : HANDLED;
  }

  /** `!voice`: continuous voice input on or off. */
  async toggleVoice(): Promise<CommandResult> {
    await this.voice.toggle();
    return HANDLED;
  }

  /** True while continuous voice input listens. */
  get listening(): boolean {
    return this.voice.listening;
  }

  /** Stops a recording or continuous voice input; false when none runs. */
  stop(): boolean {
    return this.voice.stop();
  }
}
