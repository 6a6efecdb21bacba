import { appendFileTool } from "./append-file.js";
import { applyPatchTool } from "./apply-patch.js";
import { createFileTool } from "./create-file.js";
import { readFileTool } from "./read-file.js";

/** Coding-mode file tools (seed 000 §2.8 files.ts): every path goes through the sandbox. */
export const fileTools = [readFileTool, createFileTool, appendFileTool, applyPatchTool];
