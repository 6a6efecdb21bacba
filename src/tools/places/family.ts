import type { ToolFamily } from "../kit/tool-family.js";
import { locationTools } from "./location/index.js";
import { mapTools } from "./maps/index.js";
import { placeTools } from "./saved-places/index.js";
import { travelTools } from "./travel/index.js";
import { unitTools } from "./units/index.js";
import { weatherTools } from "./weather/index.js";

export const placesFamily: ToolFamily = {
  name: "places",
  summary: "where the user is, places and what is nearby, saved places, weather, maps, travel, units",
  tools: [...locationTools, ...placeTools, ...weatherTools, ...mapTools, ...travelTools, ...unitTools],
};
