import { describe, expect, it } from "vitest";
import { countTextTokens } from "../providers/token-counter.js";
import type { Message } from "../providers/types.js";
import { ContextBudget, DEFAULT_THRESHOLDS } from "./context-budget.js";

const conversation: Message[] = [
  { role: "system", content: "You are Marvin, a helpful assistant." },
  { role: "user", content: "Tell me about the project layout in some detail. ".repeat(10) },
];

async function exact(messages: readonly Message[]): Promise<number> {
  return new ContextBudget().exactTokens(messages);
}

describe("ContextBudget thresholds", () => {
  it("defaults to the seeds' 180K warn, 200K compact, 226K hard limit", () => {
    expect(DEFAULT_THRESHOLDS).toEqual({ warn: 180_000, compact: 200_000, hard: 226_000 });
    expect(new ContextBudget().thresholds).toBe(DEFAULT_THRESHOLDS);
  });

  it("reports ok, warn, compact and reject at each threshold", async () => {
    const tokens = await exact(conversation);
    const status = async (warn: number, compact: number, hard: number) =>
      (await new ContextBudget({ warn, compact, hard }).measure(conversation)).status;
    expect(await status(tokens + 1, tokens + 2, tokens + 3)).toBe("ok");
    expect(await status(tokens, tokens + 1, tokens + 2)).toBe("warn");
    expect(await status(tokens - 2, tokens, tokens + 1)).toBe("compact");
    expect(await status(tokens - 2, tokens - 1, tokens)).toBe("reject");
  });

  it("measures exactly once the conversation is near the warning level", async () => {
    const tokens = await exact(conversation);
    const measured = await new ContextBudget({ warn: tokens, compact: tokens * 2, hard: tokens * 3 }).measure(
      conversation,
    );
    expect(measured).toEqual({ status: "warn", tokens });
  });
});

describe("a count saved with a resumed conversation", () => {
  const stored: Message[] = [
    { role: "user", content: "Plan the release. ".repeat(40) },
    { role: "assistant", content: "Here is the plan. ".repeat(40) },
  ];
  const next: Message = { role: "user", content: "And the date?" };

  it("stands for its messages, and only the messages after it are counted", async () => {
    const storedTokens = await exact(stored);
    const system: Message = { role: "system", content: "You are Marvin." };
    const budget = new ContextBudget();
    budget.rememberCount(stored, storedTokens);
    expect(await budget.exactTokens([system, ...stored, next])).toBe(await exact([system, ...stored, next]));
    expect(budget.knownTokens([...stored, next])).toEqual({ messages: 3, tokens: await exact([...stored, next]) });
    // Copies of the messages are other messages: the count is not taken for them.
    expect(new ContextBudget().knownTokens(stored.map((message) => ({ ...message })))).toEqual({
      messages: 0,
      tokens: 0,
    });
  });

  it("still brings a conversation that grows past the compaction level to compaction", async () => {
    const storedTokens = await exact(stored);
    const whole = await exact([...stored, next]);
    const budget = new ContextBudget({ warn: storedTokens - 10, compact: whole, hard: whole * 2 });
    budget.rememberCount(stored, storedTokens);
    expect(await budget.measure(stored)).toEqual({ status: "warn", tokens: storedTokens });
    expect(await budget.measure([...stored, next])).toEqual({ status: "compact", tokens: whole });
  });

  it("is the size the budget works with: a saved count above the compaction level compacts", async () => {
    const budget = new ContextBudget({ warn: 1_000, compact: 2_000, hard: 50_000 });
    budget.rememberCount(stored, 2_500);
    expect((await budget.measure([...stored, next])).status).toBe("compact");
  });
});

describe("warningText", () => {
  it("says how many tokens are in use and where compaction and refusal start", () => {
    const text = new ContextBudget({ warn: 1_000, compact: 2_000, hard: 3_000 }).warningText(1_234);
    expect(text.startsWith("\n\n[Context budget warning: about 1,234 tokens are in use")).toBe(true);
    expect(text).toContain("compacted at 2,000");
    expect(text).toContain("refused at 3,000");
  });
});

describe("the view tools get (read_file budget gate)", () => {
  it("tells how many tokens fit before the warning level, never negative", async () => {
    const tokens = await exact(conversation);
    const budget = new ContextBudget({ warn: tokens + 50, compact: tokens + 100, hard: tokens + 150 });
    budget.track(conversation);
    const view = budget.view();
    expect(await view.availableTokens()).toBe(50);
    budget.track([...conversation, { role: "user", content: "more words here. ".repeat(40) }]);
    expect(await view.availableTokens()).toBe(0);
  });

  it("says when the conversation is past the hard limit, so large reads are refused", async () => {
    const tokens = await exact(conversation);
    const budget = new ContextBudget({ warn: 10, compact: 20, hard: tokens + 1 });
    budget.track(conversation);
    expect(await budget.view().pastHardLimit()).toBe(false);
    budget.track([...conversation, { role: "assistant", content: "one more" }]);
    expect(await budget.view().pastHardLimit()).toBe(true);
  });

  it("says a text surely fits from UTF-8 byte counts alone (no tokenizer), and never when it might not", async () => {
    const budget = new ContextBudget({ warn: 1_000, compact: 2_000, hard: 3_000 });
    const short: Message[] = [{ role: "user", content: "x".repeat(96) }];
    budget.track(short);
    const view = budget.view();
    expect(view.surelyFits("y".repeat(900))).toBe(true);
    expect(view.surelyFits("y".repeat(901))).toBe(false);
    expect(view.surelyFits("é".repeat(451))).toBe(false);
    expect(await view.availableTokens()).toBeGreaterThanOrEqual(900);
  });

  it("counts and truncates text with the real tokenizer", async () => {
    const view = new ContextBudget().view();
    const text = "token ".repeat(100);
    expect(await view.countTokens(text)).toBe(await countTextTokens(text));
    expect(await countTextTokens(await view.truncateToTokens(text, 7))).toBeLessThanOrEqual(7);
  });
});
