import type { ConversationSpending } from "../../session/conversation-spending.js";
import { type CapKind, parseUsd, usd } from "../../session/spending-caps.js";

const USAGE =
  "Usage: cap [USD|off] (this conversation's spending cap), cap daily [USD|off] (today's, for this session).";

/** `cap`: what this conversation and today have cost, against their caps. */
async function capsReport(spending: ConversationSpending): Promise<string> {
  const { caps } = spending;
  return [
    "Spending caps:",
    `  this conversation: ${usd(spending.conversationCost)} spent, ${caps.describe("conversation")}`,
    `  today: ${usd(await spending.spentToday())} spent, ${caps.describe("daily")}`,
    'Change them with "cap USD" or "cap daily USD" ("off" removes one).',
  ].join("\n");
}

/** `cap [daily] [USD|off]`: shows the caps, or sets one (`off` removes it). */
export async function capCommand(
  spending: ConversationSpending,
  request: { daily: boolean; amount?: string },
): Promise<string> {
  const { amount } = request;
  if (amount === undefined) return capsReport(spending);
  const kind: CapKind = request.daily ? "daily" : "conversation";
  const off = amount.toLowerCase() === "off";
  const limit = off ? undefined : parseUsd(amount);
  if (!off && limit === undefined) return `"${amount}" is not an amount in USD above 0. ${USAGE}`;
  spending.caps.set(kind, limit);
  if (kind === "conversation") {
    const spent = `${usd(spending.conversationCost)} spent so far`;
    return limit === undefined
      ? `This conversation has no spending cap now (${spent}).`
      : `This conversation's spending cap is now ${usd(limit)}; ${spent}.`;
  }
  const spent = `${usd(await spending.spentToday())} spent today`;
  return limit === undefined
    ? `No daily spending cap for the rest of this session (${spent}).`
    : `The daily spending cap is ${usd(limit)} for the rest of this session; ${spent}.`;
}
