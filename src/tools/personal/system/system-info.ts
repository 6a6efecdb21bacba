import { readdir, readFile, statfs } from "node:fs/promises";
import os from "node:os";
import { formatDuration } from "../../../shared/duration.js";
import { errorMessage } from "../../../shared/error-message.js";

const GIB = 1024 ** 3;

function gib(bytes: number): string {
  return `${(bytes / GIB).toFixed(1)} GiB`;
}

async function diskLine(path: string): Promise<string> {
  try {
    const stats = await statfs(path);
    const total = stats.blocks * stats.bsize;
    const free = stats.bavail * stats.bsize;
    return `Disk (${path}): ${gib(total - free)} used of ${gib(total)} (${gib(free)} free)`;
  } catch (error) {
    return `Disk (${path}): unavailable (${errorMessage(error)})`;
  }
}

async function batteryLine(): Promise<string> {
  const base = "/sys/class/power_supply";
  try {
    const supplies = (await readdir(base)).filter((name) => name.startsWith("BAT"));
    const readings = await Promise.all(
      supplies.map(async (name) => {
        const capacity = (await readFile(`${base}/${name}/capacity`, "utf8")).trim();
        const status = (await readFile(`${base}/${name}/status`, "utf8").catch(() => "unknown")).trim();
        return `${name} ${capacity}% (${status.toLowerCase()})`;
      }),
    );
    return readings.length ? `Battery: ${readings.join(", ")}` : "Battery: none found";
  } catch {
    return "Battery: none found";
  }
}

/** OS, CPU, memory, disk, uptime and battery of this machine. */
export async function describeSystem(home: string): Promise<string> {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");
  const lines = [
    `OS: ${os.type()} ${os.release()} (${os.platform()}, ${os.arch()})`,
    `Host: ${os.hostname()}`,
    `CPU: ${cpus[0]?.model.trim() ?? "unknown"} × ${cpus.length} (load ${load})`,
    `Memory: ${gib(os.totalmem() - os.freemem())} used of ${gib(os.totalmem())} (${gib(os.freemem())} free)`,
    await diskLine("/"),
    ...(home !== "/" ? [await diskLine(home)] : []),
    `Uptime: ${formatDuration(os.uptime() * 1000)}`,
    `Node.js: ${process.version}`,
    await batteryLine(),
  ];
  return lines.join("\n");
}
