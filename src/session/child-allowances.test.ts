import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { localDay, UsageTracker } from "../state/usage.js";
import { ConversationSpending } from "./conversation-spending.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A conversation's spending whose usage.json says `spentToday` was spent today by sessions that ended. */
function spending(env: Record<string, string>, spentToday = 0): ConversationSpending {
  const folder = mkdtempSync(join(tmpdir(), "marvin-allowances-"));
  folders.push(folder);
  const usagePath = join(folder, "usage.json");
  writeFileSync(usagePath, JSON.stringify({ sessions: 1, daily_cost: { [localDay(new Date())]: spentToday } }));
  return new ConversationSpending(new UsageTracker(), env, false, usagePath, () => undefined);
}

describe("ChildAllowances", () => {
  it("divides what is left among the children asked for together, and counts what each spent", async () => {
    const conversation = spending({ MARVIN_MAX_COST: "0.90" });
    const children = [1, 2, 3].map(() => conversation.children.enlist());
    const caps = await Promise.all(children.map((child) => child.claim()));
    expect(caps.map((cap) => cap.conversation)).toEqual([0.3, 0.3, 0.3]);
    children[0]!.settle(0.1);
    children[1]!.settle(undefined); // no cost line: its whole share counts
    expect(conversation.conversationCost).toBeCloseTo(0.4, 6);
    // The third still holds its share: a new child gets what is left beside it.
    const late = conversation.children.enlist();
    expect((await late.claim()).conversation).toBeCloseTo(0.2, 6);
  });

  it("a child that was not started gives its part back, and none starts once the cap is reached", async () => {
    const conversation = spending({ MARVIN_MAX_COST: "0.60" });
    const [first, declined] = [conversation.children.enlist(), conversation.children.enlist()];
    declined.withdraw();
    expect((await first.claim()).conversation).toBeCloseTo(0.6, 6);
    await expect(conversation.children.enlist().claim()).rejects.toThrow(
      "The $0.60 left under the spending caps is given to the sub-agents running now",
    );
    first.settle(0.6);
    await expect(conversation.children.enlist().claim()).rejects.toThrow("at MARVIN_MAX_COST=$0.60");
  });

  it("takes the lesser of the conversation's and today's caps, and passes the daily cap on", async () => {
    const conversation = spending({ MARVIN_MAX_COST: "1", MARVIN_MAX_DAILY_COST: "2" }, 1.5);
    expect(await conversation.children.enlist().claim()).toEqual({ conversation: 0.5, daily: 2 });
    expect(await spending({}).children.enlist().claim()).toEqual({ conversation: undefined, daily: undefined });
  });
});
