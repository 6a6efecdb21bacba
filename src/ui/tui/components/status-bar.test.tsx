import { stripVTControlCharacters as plain } from "node:util";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { textWidth } from "../spans.js";
import { formatStatus, type StatusInfo } from "../status-line.js";
import { COLOR_THEME } from "../theme.js";
import { StatusBar } from "./status-bar.js";

const IDLE: StatusInfo = {
  provider: "groq",
  model: "llama-3.3-70b-versatile",
  profile: "work",
  messages: 12,
  cost: 0.01234,
  coding: false,
  shell: false,
  readonly: false,
  planning: false,
  busy: false,
  listening: false,
  queued: 0,
  linesBelow: 0,
};

const frameOf = (status: StatusInfo, width = 99) =>
  render(<StatusBar status={status} width={width} theme={COLOR_THEME} />).lastFrame() ?? "";

describe("StatusBar", () => {
  it("shows provider, model, profile, message count and cost in inverse video, full width", () => {
    const frame = frameOf(IDLE);
    expect(plain(frame)).toMatch(/^ ⚡ groq · llama-3\.3-70b-versatile │ 👤 work │ 12 msgs │ \$0\.0123 │ +○ ready $/);
    expect(textWidth(plain(frame))).toBe(99);
    expect(frame.startsWith("\x1b[7m")).toBe(true);
  });

  it("says 'price unknown' instead of $0.0000 once a model without a known price answered", () => {
    expect(plain(frameOf({ ...IDLE, cost: 0, unpricedModels: ["house-model-7b"] }))).toMatch(
      /│ 12 msgs │ price unknown │ +○ ready $/,
    );
    expect(plain(frameOf({ ...IDLE, unpricedModels: ["house-model-7b"] }))).toMatch(
      /│ 12 msgs │ \$0\.0123 \+ price unknown │ +○ ready $/,
    );
  });

  it("shows the mode flags and the activity: busy time, queued messages, lines below when scrolled up", () => {
    const busy = plain(frameOf({ ...IDLE, provider: "openai", model: "gpt-4o", coding: true, busy: true, queued: 1 }));
    expect(busy).toMatch(/^ 🧠 openai · gpt-4o │ 👤 work │ 12 msgs │ \$0\.0123 │ coding │ +1 queued │ ● working $/);
    const scrolled = plain(
      frameOf({ ...IDLE, provider: "openai", model: "gpt-4o", shell: true, readonly: true, linesBelow: 40 }),
    );
    expect(scrolled).toMatch(/│ shell · readonly │ +↓ 40 more lines │ ○ ready $/);
    const planning = plain(frameOf({ ...IDLE, coding: true, readonly: true, planning: true }));
    expect(planning).toMatch(/│ coding · plan │ +○ ready $/);
    expect(plain(frameOf({ ...IDLE, listening: true }))).toMatch(/│ +🎤 listening │ ○ ready $/);
  });

  it("shows the context meter next to the cost and how long the answer has been running; drops the meter first", () => {
    const status: StatusInfo = {
      ...IDLE,
      cacheHit: "80 % from cache",
      context: { tokens: 24_600, limit: 200_000 },
      busy: true,
      elapsedMs: 12_400,
    };
    expect(formatStatus(status, 120)).toMatch(/│ \$0\.0123 \(80 % from cache\) │ ctx 25k\/200k │ +● working 12s $/);
    expect(plain(frameOf(status, 99))).toMatch(
      / llama-3\.3-70b-versatile │ .* │ \$0\.0123 \(80 % from cache\) │ ● working 12s $/,
    );
  });

  it("keeps the activity visible on a narrow terminal, naming the provider by its emoji only", () => {
    const frame = plain(frameOf({ ...IDLE, busy: true }, 60));
    expect(textWidth(frame)).toBe(60);
    expect(frame).toMatch(/^ ⚡ llama-3\.3-70… │ 👤 work │ 12 msgs │ \$0\.0123 │ +● working $/);
  });
});
