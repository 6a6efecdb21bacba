#!/usr/bin/env node
// The command's entry point. `marvin --version` answers here, before the rest of the CLI is loaded: scripts and
// installers call it to check for Marvin, and it should cost little more than starting Node.
import { marvinVersion } from "../shared/version.js";

const [first, ...rest] = process.argv.slice(2);
if ((first === "--version" || first === "-v") && rest.length === 0) process.stdout.write(`marvin ${marvinVersion()}\n`);
else await import("./main.js");
