import { z } from "zod";
import { describe, expect, test } from "../../tests/support/fixtures.js";
import { createToolRegistry } from "../tools/index.js";
import { defineTool } from "../tools/kit/define-tool.js";
import { ToolRegistry } from "../tools/kit/registry.js";
import { type ApprovalAnswer, type ApprovalQuestion, initialApprovalMode, SessionApprovals } from "./approvals.js";
import { createToolContext } from "./standalone-tool-context.js";

/** A person who gives `answers` in turn, and the questions they were asked. */
function person(...answers: ApprovalAnswer[]) {
  const asked: ApprovalQuestion[] = [];
  return {
    asked,
    ask: async (question: ApprovalQuestion) => {
      asked.push(question);
      return answers.shift() ?? "no";
    },
  };
}

const registry = new ToolRegistry();
registry.register(
  defineTool({
    name: "plant_cron_line",
    description: "test tool",
    parameters: z.object({}),
    effect: "write",
    approval: "writes a line in your crontab",
    handler: async () => "planted",
  }),
);

describe("approvals", () => {
  test("asks before a tool that acts beyond the sandbox; 'a' allows it for the conversation", async ({ home }) => {
    const answering = person("no", "conversation");
    const context = createToolContext({ home, approvals: new SessionApprovals("ask", answering.ask) });
    expect(await registry.execute("plant_cron_line", {}, context)).toEqual({
      isError: true,
      result:
        "The user did not allow plant_cron_line (writes a line in your crontab). Do not call it again unless the " +
        "user asks.",
    });
    expect((await registry.execute("plant_cron_line", {}, context)).result).toBe("planted");
    expect((await registry.execute("plant_cron_line", {}, context)).result).toBe("planted");
    expect(answering.asked).toEqual([
      {
        text: "Allow plant_cron_line (writes a line in your crontab)?",
        subject: "plant_cron_line",
        forConversation: true,
      },
      {
        text: "Allow plant_cron_line (writes a line in your crontab)?",
        subject: "plant_cron_line",
        forConversation: true,
      },
    ]);
  });

  test("never asks in never mode or without anyone to ask; auto asks only for unsandboxed commands", async () => {
    const answering = person("yes");
    expect(await new SessionApprovals("never", answering.ask).tool("plant_cron_line", "x")).toBe(true);
    expect(await new SessionApprovals("never", answering.ask).rerunOutsideSandbox("ls", "x")).toBe(false);
    const auto = new SessionApprovals("auto", answering.ask);
    expect(await auto.command("make", true)).toBe(true);
    expect(answering.asked).toEqual([]);
    expect(await auto.command("make", false)).toBe(true);
    expect(answering.asked.map((question) => question.text)).toEqual(["Run `make`?"]);
    expect(initialApprovalMode({ MARVIN_APPROVAL: "auto" }, false)).toBe("never");
    expect(initialApprovalMode({ MARVIN_APPROVAL: "Auto" }, true)).toBe("auto");
    expect(initialApprovalMode({}, true)).toBe("ask");
  });

  test("without a sandbox, never asks once whether commands run unconfined; with no one to ask, refuses", async () => {
    const answering = person("yes");
    const never = new SessionApprovals("never", answering.ask);
    expect(await never.unconfined("bwrap is not installed")).toBe("run");
    expect(await never.unconfined("bwrap is not installed")).toBe("run");
    expect(answering.asked).toEqual([
      {
        text:
          "No sandbox works here (bwrap is not installed), so commands would run unconfined, with all your rights. " +
          "Let commands run without a sandbox for the rest of this conversation?",
        subject: "commands without a sandbox",
        forConversation: false,
      },
    ]);
    const declining = person("no");
    const declined = new SessionApprovals("never", declining.ask);
    expect([await declined.unconfined("x"), await declined.unconfined("x")]).toEqual(["declined", "declined"]);
    expect(declining.asked).toHaveLength(1);
    expect(await new SessionApprovals("never", undefined).unconfined("x")).toBe("nobody-to-ask");
    const other = person();
    for (const mode of ["ask", "auto"] as const)
      expect(await new SessionApprovals(mode, other.ask).unconfined("x")).toBe("run");
    expect(other.asked).toEqual([]);
  });

  test("the crontab-writing tools ask", async () => {
    const tools = createToolRegistry();
    const asking = ["set_alarm", "cancel_alarm", "calendar_add_event", "calendar_delete_event"];
    for (const name of asking) expect((await tools.definition(name))?.approval, name).toContain("crontab");
  });
});
