import { Box } from "ink";
import { useMemo, useSyncExternalStore } from "react";
import type { TuiController } from "../controller.js";
import { EntryLineRenderer } from "../entry-lines.js";
import { useTerminalInput } from "../hooks/use-terminal-input.js";
import { useTerminalSize } from "../hooks/use-terminal-size.js";
import { useTicker } from "../hooks/use-ticker.js";
import { buildScreen } from "../screen-view.js";
import type { Theme } from "../theme.js";
import { ChatView } from "./chat-view.js";
import { PromptArea } from "./prompt-area.js";
import { StatusBar } from "./status-bar.js";

export interface AppProps {
  controller: TuiController;
  theme: Theme;
}

/** Live counters (busy time, long-running tools) tick once a second. */
const TICK_MS = 1000;

/** The full-screen UI: status bar, chat area, input line. All state lives in the controller. */
export function App({ controller, theme }: AppProps) {
  useSyncExternalStore(controller.subscribe, controller.getVersion);
  const { columns, rows } = useTerminalSize();
  const renderer = useMemo(() => new EntryLineRenderer(theme), [theme]);
  useTerminalInput((event) => controller.handleInput(event));
  const now = controller.chat.clock();
  useTicker(controller.busyFor(now) !== undefined, TICK_MS);
  const view = buildScreen(controller, renderer, theme, columns, rows, now);
  return (
    <Box flexDirection="column" width={columns}>
      <StatusBar status={view.status} width={view.width} theme={theme} />
      <ChatView lines={view.chatLines} height={view.chatHeight} />
      <PromptArea queuedLines={view.queuedLines} promptLines={view.promptLines} width={view.width} theme={theme} />
    </Box>
  );
}
