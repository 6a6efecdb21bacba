import type { ToolFamily } from "../kit/tool-family.js";
import { blenderTools } from "./blender/index.js";
import { mediaTools } from "./films-games/index.js";
import { musicTools } from "./music/index.js";
import { recipeTools } from "./recipes/index.js";
import { spotifyTools } from "./spotify/index.js";
import { steamTools } from "./steam/index.js";

export const mediaFamily: ToolFamily = {
  name: "media",
  summary: "music and Spotify playlists, recipes, films and series, video games and Steam, 3D scenes in Blender",
  tools: [...musicTools, ...recipeTools, ...spotifyTools, ...mediaTools, ...steamTools, ...blenderTools],
};
