import { Box } from "ink";
import { useSyncExternalStore } from "react";
import type { ChatPane } from "../chat-pane.js";
import type { TuiController } from "../controller.js";
import { useTerminalInput } from "../hooks/use-terminal-input.js";
import { useTerminalSize } from "../hooks/use-terminal-size.js";
import { buildScreen } from "../screen-view.js";
import { PromptArea } from "./prompt-area.js";
import { StatusBar } from "./status-bar.js";

interface AppProps {
  controller: TuiController;
  /** Draws the conversation into the rows Ink reserves for it. */
  pane: ChatPane;
}

/**
 * The full-screen UI: status bar, chat area, input line. All state lives in the controller;
 * the conversation itself is drawn by the ChatPane into the rows reserved here.
 */
export function App({ controller, pane }: AppProps) {
  useSyncExternalStore(controller.subscribe, controller.getVersion);
  const { columns, rows } = useTerminalSize();
  useTerminalInput((event) => controller.handleInput(event));
  const { theme } = controller;
  const view = buildScreen(controller, pane, theme, columns, rows);
  return (
    <Box flexDirection="column" width={columns}>
      <StatusBar status={view.status} width={view.width} theme={theme} />
      <Box height={view.chatHeight + view.ruleRows} flexShrink={0} />
      <PromptArea queuedLines={view.queuedLines} promptLines={view.promptLines} />
    </Box>
  );
}
