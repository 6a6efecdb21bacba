/** Loudness (RMS, full scale = 1) above which a 100 ms frame counts as speech. */
const SPEECH_LEVEL = 0.02;
/** Speech needed before a pause can end the turn, so a cough or a click does not. */
const SPEECH_MS = 300;
/** Quiet after speech that ends the turn. */
const PAUSE_MS = 1_200;
const FRAME_MS = 100;

/**
 * Decides from 16-bit samples when someone has spoken and then paused: the end of a turn in
 * continuous voice input. Feed it samples as the recording grows.
 */
export class PauseDetector {
  private readonly frameSamples: number;
  private frameSquares = 0;
  private frameCount = 0;
  private speechMs = 0;
  private quietMs = 0;

  constructor(sampleRate: number) {
    this.frameSamples = Math.max(1, Math.round((sampleRate * FRAME_MS) / 1000));
  }

  /** True once enough speech was heard. */
  get heardSpeech(): boolean {
    return this.speechMs >= SPEECH_MS;
  }

  /** True once speech was heard and then a pause. */
  get paused(): boolean {
    return this.heardSpeech && this.quietMs >= PAUSE_MS;
  }

  push(samples: Int16Array): void {
    for (const sample of samples) {
      const level = sample / 32_768;
      this.frameSquares += level * level;
      this.frameCount += 1;
      if (this.frameCount === this.frameSamples) this.endFrame();
    }
  }

  private endFrame(): void {
    const loud = Math.sqrt(this.frameSquares / this.frameCount) >= SPEECH_LEVEL;
    this.frameSquares = 0;
    this.frameCount = 0;
    if (loud) {
      this.speechMs += FRAME_MS;
      this.quietMs = 0;
    } else if (this.heardSpeech) {
      this.quietMs += FRAME_MS;
    }
  }
}
