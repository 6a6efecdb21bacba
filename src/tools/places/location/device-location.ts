import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { toolChildEnv } from "../../../shared/child-env.js";
import type { Env } from "../../../shared/env.js";

interface DeviceLocation {
  latitude: number;
  longitude: number;
  accuracyMeters: number;
  /** "GeoClue" or "CoreLocation". */
  source: string;
}

/** A position from the machine's location service, or why there is none (said in the result). */
type DeviceLookup = { found: DeviceLocation } | { missing: string };

/** Seconds the location service gets to find a position (it may have to scan Wi-Fi first). */
const WAIT_SECONDS = 10;

const GEOCLUE_PACKAGE = "Debian package geoclue-2-demo";
/** Where Debian (`geoclue-2-demo`), Fedora and Arch install GeoClue's demo client. */
const WHERE_AM_I_PATHS = ["/usr/libexec/geoclue-2.0/demos/where-am-i", "/usr/lib/geoclue-2.0/demos/where-am-i"];

/** where-am-i prints each position as "Latitude:    46.948090°" … "Accuracy:    25.000000 meters". */
const WHERE_AM_I_FIX = /Latitude:\s*(-?[\d.]+)°?\s*\n\s*Longitude:\s*(-?[\d.]+)°?\s*\n\s*Accuracy:\s*([\d.]+) meters/;
/** CoreLocationCLI with the format below prints "46.948090 7.447440 65.000000". */
const CORE_LOCATION_FIX = /^(-?[\d.]+) (-?[\d.]+) ([\d.]+)\s*$/m;

type Fix = Omit<DeviceLocation, "source">;

function fixFrom(pattern: RegExp, output: string): Fix | undefined {
  const match = pattern.exec(output);
  if (!match) return undefined;
  const [latitude, longitude, accuracyMeters] = match.slice(1, 4).map(Number) as [number, number, number];
  return { latitude, longitude, accuracyMeters };
}

/** The first position in where-am-i's output so far; undefined until a whole one has arrived. */
export const whereAmIFix = (output: string) => fixFrom(WHERE_AM_I_FIX, output);

interface Program {
  source: string;
  command: string;
  args: string[];
  fix: (output: string) => Fix | undefined;
  /** How to get the program, for the note when it is missing. */
  install: string;
}

/**
 * Runs `program` until its output matches its position pattern (then stops it), it exits, or
 * WAIT_SECONDS pass. The child gets no secrets and the C locale, so decimals come with a point.
 */
function readFix(program: Program, env: Env, signal: AbortSignal): Promise<DeviceLookup> {
  return new Promise((resolve) => {
    const child = spawn(program.command, program.args, {
      env: { ...toolChildEnv(env), LC_ALL: "C" },
      stdio: ["ignore", "pipe", "pipe"],
      signal,
    });
    let output = "";
    let errors = "";
    const finish = (outcome: DeviceLookup) => {
      clearTimeout(timer);
      child.kill("SIGTERM");
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ missing: `${program.source} found no position within ${WAIT_SECONDS} s` }),
      (WAIT_SECONDS + 2) * 1000,
    );
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const fix = program.fix(output);
      if (fix) finish({ found: { ...fix, source: program.source } });
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") finish({ missing: `${program.source} is not installed (${program.install})` });
      else finish({ missing: `${program.source} could not be started (${error.code ?? error.message})` });
    });
    child.on("close", () => {
      const reason = errors.trim().split("\n").at(-1)?.trim();
      finish({ missing: `${program.source} gave no position${reason ? ` (${reason})` : ""}` });
    });
  });
}

function geoClue(path: string): Program {
  const args = ["--timeout", String(WAIT_SECONDS), "--accuracy-level", "8"];
  return { source: "GeoClue", command: path, args, fix: whereAmIFix, install: GEOCLUE_PACKAGE };
}

const CORE_LOCATION: Program = {
  source: "CoreLocation",
  command: "CoreLocationCLI",
  args: ["--format", "%latitude %longitude %h_accuracy"],
  fix: (output) => fixFrom(CORE_LOCATION_FIX, output),
  install: "brew install corelocationcli",
};

/**
 * The position from the platform's location service: CoreLocation (through CoreLocationCLI) on
 * macOS, GeoClue (through its where-am-i client, or the one MARVIN_WHERE_AM_I names) on Linux.
 */
export async function locateDevice(env: Env, signal: AbortSignal): Promise<DeviceLookup> {
  if (process.platform === "darwin") return readFix(CORE_LOCATION, env, signal);
  if (process.platform !== "linux") return { missing: `no location service is supported on ${process.platform}` };
  const configured = env.MARVIN_WHERE_AM_I?.trim();
  const installed = (configured ? [configured] : WHERE_AM_I_PATHS).find((path) => existsSync(path));
  if (!installed) return { missing: `GeoClue is not installed (${GEOCLUE_PACKAGE})` };
  return readFix(geoClue(installed), env, signal);
}
