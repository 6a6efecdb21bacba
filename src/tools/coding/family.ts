import type { ToolFamily } from "../kit/tool-family.js";
import { agentTools } from "./agents/index.js";
import { fileTools } from "./files/index.js";
import { gitTools } from "./git/index.js";
import { packageTools } from "./packages/index.js";
import { codingTools } from "./project/index.js";
import { shellTools } from "./shell/index.js";

export const codingFamily: ToolFamily = {
  name: "coding",
  summary: "files, code search, the working directory, reviews, git, shell commands, Python packages, sub-agents",
  tools: [...fileTools, ...codingTools, ...gitTools, ...shellTools, ...packageTools, ...agentTools],
};
