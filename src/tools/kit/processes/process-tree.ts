import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";

/** The fields of `/proc/<pid>/stat` used here. */
export interface ProcessEntry {
  pid: number;
  /** The command name the kernel keeps (at most 15 characters). */
  name: string;
  state: string;
  ppid: number;
  pgrp: number;
  /** Clock ticks after boot; a reused pid has another one. */
  startTime: string;
}

function readEntry(pid: number): ProcessEntry | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The name is in parentheses and may itself contain ") ", so split after the last one.
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  return {
    pid,
    name: text.slice(text.indexOf("(") + 1, close),
    state: fields[0]!,
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    startTime: fields[19]!,
  };
}

/** `pid` as each pid namespace from this process's down to its own sees it (`NSpid`); empty when unknown. */
function namespacePids(pid: number): number[] {
  try {
    const line = /^NSpid:\s*(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return line ? line[1]!.trim().split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

/**
 * The pid `pid` has in a pid namespace one below this process's (a sandbox it started); undefined for
 * a process in this namespace, in one deeper down, or gone.
 */
export function sandboxedPid(pid: number): number | undefined {
  const pids = namespacePids(pid);
  return pids.length === namespacePids(process.pid).length + 1 ? pids.at(-1) : undefined;
}

/**
 * What the file descriptors of `pid` point at (`pipe:[123]`, paths…), all or only `fds`; empty when they
 * cannot be read.
 */
export function openFiles(pid: number, fds?: number[]): string[] {
  try {
    return (fds?.map(String) ?? readdirSync(`/proc/${pid}/fd`)).flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/${pid}/fd/${fd}`)];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

function allEntries(): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  return names.filter((name) => /^\d+$/.test(name)).flatMap((name) => readEntry(Number(name)) ?? []);
}

function carriesMarker(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker);
  } catch {
    return false;
  }
}

function sendSignal(target: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every process one command started, as far as Linux's /proc shows them: its process group,
 * the descendants of any process known to belong to it, and — on a deep refresh — processes
 * whose environment carries the command's marker variable. The marker finds processes that
 * left the group (`setsid`, daemons) even after their parent exited and they were re-parented.
 * A process is remembered with its start time, so a reused pid is never mistaken for it.
 *
 * Without /proc (macOS) only the process group can be signalled, and nothing can be verified.
 */
export class ProcessTree {
  /** True where /proc can be read, so processes can be found and their end verified. */
  readonly inspectable = existsSync("/proc/self/stat");
  private readonly members = new Map<number, ProcessEntry>();
  private readonly leaderStart: string | undefined;

  /**
   * @param leader pid of the command's shell, leader of its process group
   * @param marker `NAME=value` set in the shell's environment
   */
  constructor(
    readonly leader: number,
    private readonly marker: string,
  ) {
    this.leaderStart = this.inspectable ? readEntry(leader)?.startTime : undefined;
  }

  /** Records the processes that belong to the command now; `deep` also reads every environment. */
  refresh(deep = false): void {
    if (!this.inspectable) return;
    const entries = allEntries();
    const children = new Map<number, ProcessEntry[]>();
    for (const entry of entries) {
      const siblings = children.get(entry.ppid);
      if (siblings) siblings.push(entry);
      else children.set(entry.ppid, [entry]);
    }
    const ownGroup = this.groupIsOurs();
    const queue = entries.filter(
      (entry) =>
        this.isMember(entry) ||
        entry.pid === this.leader ||
        (ownGroup && entry.pgrp === this.leader) ||
        (deep && entry.pid !== process.pid && carriesMarker(entry.pid, this.marker)),
    );
    const seen = new Set<number>();
    while (queue.length) {
      const entry = queue.pop()!;
      if (seen.has(entry.pid) || entry.pid === process.pid) continue;
      seen.add(entry.pid);
      if (entry.state !== "Z") this.members.set(entry.pid, entry);
      queue.push(...(children.get(entry.pid) ?? []));
    }
  }

  /** Known processes that still run, by pid (a zombie has finished; it only waits for its parent). */
  alive(): ProcessEntry[] {
    const running: ProcessEntry[] = [];
    for (const [pid, known] of this.members) {
      const now = readEntry(pid);
      if (now && now.startTime === known.startTime && now.state !== "Z") running.push(now);
      else this.members.delete(pid);
    }
    return running.sort((a, b) => a.pid - b.pid);
  }

  /** Whether anything of the command may still run: verified with /proc, else whether its group exists. */
  running(): boolean {
    return this.inspectable ? this.alive().length > 0 : sendSignal(-this.leader, 0);
  }

  /** Signals the process group (while it is still the command's) and every known process. */
  signal(signal: NodeJS.Signals): void {
    if (!this.inspectable || this.groupIsOurs()) sendSignal(-this.leader, signal);
    for (const entry of this.alive()) sendSignal(entry.pid, signal);
  }

  private isMember(entry: ProcessEntry): boolean {
    return this.members.get(entry.pid)?.startTime === entry.startTime;
  }

  /**
   * The group id is the shell's pid. It stays the command's while the shell runs, or while no
   * other process holds that pid (Linux does not hand out a pid still used as a group id).
   */
  private groupIsOurs(): boolean {
    const holder = readEntry(this.leader);
    return !holder || holder.startTime === this.leaderStart;
  }
}
