/**
 * Variables that lead a program to a server of the user outside the sandbox — an agent, a bus, a terminal
 * multiplexer or editor that runs what it is told — through a unix socket. Their sockets are not reachable
 * from the sandbox (its /tmp, /run and home are emptied); these say where they were.
 */
const SOCKET_VARIABLES = [
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "GPG_AGENT_INFO",
  "GNOME_KEYRING_CONTROL",
  "DBUS_SESSION_BUS_ADDRESS",
  "DBUS_SYSTEM_BUS_ADDRESS",
  "XDG_RUNTIME_DIR",
  "TMUX",
  "TMUX_PANE",
  "STY",
  "NVIM",
  "NVIM_LISTEN_ADDRESS",
  "KITTY_LISTEN_ON",
  "WEZTERM_UNIX_SOCKET",
  "SWAYSOCK",
  "I3SOCK",
  "WAYLAND_DISPLAY",
  "DISPLAY",
  "PULSE_SERVER",
];

/** Where a container engine listens: removed when it is a unix socket (a tcp:// one is a network address). */
const ENGINE_VARIABLES = ["DOCKER_HOST", "CONTAINER_HOST"];

/** `env` without the variables that point at sockets outside the sandbox. */
export function withoutSocketVariables(env: Record<string, string>): Record<string, string> {
  const kept = { ...env };
  for (const name of SOCKET_VARIABLES) delete kept[name];
  for (const name of ENGINE_VARIABLES) if (/^(unix:|\/)/.test(kept[name] ?? "x")) delete kept[name];
  return kept;
}
