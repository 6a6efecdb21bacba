import type { ToolFamily } from "../kit/tool-family.js";
import { academicTools } from "./academic/index.js";
import { bookmarkTools } from "./bookmarks/index.js";
import { feedTools } from "./feeds/index.js";
import { githubTools } from "./github/index.js";
import { languageTools } from "./language/index.js";
import { stackTools } from "./stack/index.js";
import { wikiTools } from "./wiki/index.js";

export const knowledgeFamily: ToolFamily = {
  name: "knowledge",
  summary: "bookmarks, GitHub, Wikipedia, research papers, Stack Exchange, dictionary and translation, RSS",
  tools: [
    ...bookmarkTools,
    ...githubTools,
    ...wikiTools,
    ...academicTools,
    ...stackTools,
    ...languageTools,
    ...feedTools,
  ],
};
