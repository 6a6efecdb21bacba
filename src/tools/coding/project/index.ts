import { codeGrep } from "./code-grep.js";
import { reviewTools } from "./review-tools.js";
import { tree } from "./tree.js";
import { workingDirTools } from "./working-dir.js";

/** The coding domain (seed 000 §2.8): working dir, search, tree, background reviews. */
export const codingTools = [...workingDirTools, codeGrep, tree, ...reviewTools];
