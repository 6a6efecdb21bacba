import { preview } from "../../shared/truncate.js";
import { cacheHitText } from "../../state/usage.js";
import { approvalPrompt } from "../approval-prompt.js";
import { safeLabel } from "../terminal-text.js";
import type { ChatPane } from "./chat-pane.js";
import { renderMenu } from "./completion-menu.js";
import type { TuiController } from "./controller.js";
import { renderPrompt } from "./prompt-view.js";
import { renderPicker } from "./session-picker.js";
import { wrapToLines } from "./spans.js";
import type { StatusInfo } from "./status-line.js";
import type { Theme } from "./theme.js";

/** Everything one frame shows, computed from the controller for a terminal size. */
interface ScreenView {
  /** Columns used for content: one less than the terminal, so no line ends in the last column. */
  width: number;
  status: StatusInfo;
  /** Rows of the chat area, drawn by the ChatPane. */
  chatHeight: number;
  /** The rule under the chat area (also drawn by the ChatPane). */
  ruleRows: number;
  queuedLines: string[];
  promptLines: string[];
}

const STATUS_ROWS = 1;
const SEPARATOR_ROWS = 1;
const MAX_QUEUED_ROWS = 3;

function promptArea(controller: TuiController, width: number, available: number, theme: Theme): string[] {
  if (controller.picker) return renderPicker(controller.picker, width, Math.max(3, available - 2), theme);
  if (controller.themePicker) return controller.themePicker.lines(width, Math.max(3, available - 2), theme);
  const maxRows = Math.max(1, Math.floor(available / 3));
  const pending = controller.pendingConfirmation;
  if (pending !== undefined) {
    const question = wrapToLines(
      [{ text: approvalPrompt(pending), style: (text) => theme.bold(theme.tool(text)) }],
      width,
    );
    return question.slice(-maxRows);
  }
  const prompt = renderPrompt(
    controller.layer.prompt,
    controller.prompt,
    controller.inputHistory.lines,
    width,
    maxRows,
    theme,
  );
  const menu = controller.menu
    ? renderMenu(controller.menu, width, Math.max(1, available - prompt.length - 2), theme)
    : [];
  return [...menu, ...prompt];
}

/** Lays out one frame; places the chat pane (which renders the visible conversation). */
export function buildScreen(
  controller: TuiController,
  pane: ChatPane,
  theme: Theme,
  columns: number,
  rows: number,
): ScreenView {
  const width = Math.max(1, columns - 1);
  const available = Math.max(1, rows - STATUS_ROWS - SEPARATOR_ROWS);
  const promptLines = promptArea(controller, width, available, theme);
  const queued = controller.queuedLines;
  const queuedLines = queued
    .slice(0, MAX_QUEUED_ROWS)
    .map((text) => theme.dim(theme.you(`⏳ queued: ${preview(safeLabel(text), Math.max(1, width - 11))}`)));
  const chatHeight = Math.max(1, available - promptLines.length - queuedLines.length);
  const linesBelow = pane.place(STATUS_ROWS, width, chatHeight);
  const { session, layer } = controller;
  const active = layer.activeModel;
  const usage = session.usage.getSessionUsage();
  return {
    width,
    chatHeight,
    ruleRows: SEPARATOR_ROWS,
    queuedLines,
    promptLines,
    status: {
      provider: active.provider,
      model: safeLabel(active.model),
      profile: safeLabel(session.profileName),
      messages: session.messageCount,
      cost: session.usage.spentWithSubAgents(),
      unpricedModels: session.usage.unpricedModels(),
      cacheHit: cacheHitText(usage),
      context:
        controller.chat.lastRequestTokens === undefined
          ? undefined
          : { tokens: controller.chat.lastRequestTokens, limit: session.budget.thresholds.compact },
      elapsedMs: controller.busySince === undefined ? undefined : performance.now() - controller.busySince,
      coding: session.codingMode,
      shell: layer.shellMode,
      readonly: session.mode.readonly,
      planning: session.planning,
      busy: controller.busy,
      listening: layer.voiceListening,
      queued: queued.length,
      linesBelow,
    },
  };
}
