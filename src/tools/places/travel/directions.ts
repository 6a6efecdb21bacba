import type { UnitSystem } from "../../../state/preferences.js";
import { formatDistance, formatTravelTime } from "./measures.js";
import type { RouteLeg, RouteStep } from "./osrm.js";

/** Longest list of steps handed to the model; a cross-country route has hundreds. */
const MAX_STEPS = 80;

const COMPASS = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"];

function roadOf(step: RouteStep): string {
  if (step.name && step.ref) return `${step.name} (${step.ref})`;
  return step.name || step.ref || "";
}

/** " onto Bundesgasse", or nothing for an unnamed road. */
const onto = (road: string) => (road ? ` onto ${road}` : "");

/** The maneuver in words, from OSRM's type and modifier (docs: StepManeuver object). */
function instruction(step: RouteStep): string {
  const { type, modifier, exit, bearing_after: bearingAfter } = step.maneuver;
  const road = roadOf(step);
  const direction = modifier ?? "ahead";
  switch (type) {
    case "depart": {
      const heading = bearingAfter === undefined ? "" : ` ${COMPASS[Math.round(bearingAfter / 45) % 8]}`;
      return `Head${heading}${road ? ` on ${road}` : ""}`;
    }
    case "arrive":
      return modifier && modifier !== "straight" ? `Arrive; the destination is on the ${modifier}` : "Arrive";
    case "new name":
    case "notification":
      return `Continue${onto(road)}`;
    case "continue":
      return `Continue ${direction}${road ? ` on ${road}` : ""}`;
    case "merge":
      return `Merge ${direction}${onto(road)}`;
    case "on ramp":
      return `Take the ramp on the ${direction}${onto(road)}`;
    case "off ramp":
      return `Take the exit on the ${direction}${onto(road)}`;
    case "fork":
      return `Keep ${direction} at the fork${onto(road)}`;
    case "end of road":
      return `At the end of the road turn ${direction}${onto(road)}`;
    case "use lane":
      return `Use the lane for ${direction}${road ? ` on ${road}` : ""}`;
    case "roundabout":
    case "rotary":
      return `At the roundabout take ${exit ? `exit ${exit}` : "the exit"}${onto(road)}`;
    case "roundabout turn":
      return `At the roundabout turn ${direction}${onto(road)}`;
    case "exit roundabout":
    case "exit rotary":
      return `Leave the roundabout${onto(road)}`;
    default:
      return `Turn ${direction}${onto(road)}`;
  }
}

/** Numbered turn-by-turn lines for every leg, with a heading per leg when there are waypoints. */
export function formatSteps(legs: RouteLeg[], legNames: string[], units: UnitSystem): string[] {
  const lines: string[] = [];
  let number = 0;
  legs.forEach((leg, index) => {
    if (legs.length > 1) {
      const span = `${formatTravelTime(leg.duration)}, ${formatDistance(leg.distance, units)}`;
      lines.push(`Leg ${index + 1}: ${legNames[index] ?? ""} (${span})`);
    }
    for (const step of leg.steps) {
      number++;
      if (number > MAX_STEPS) continue;
      const length = step.distance > 0 ? ` — ${formatDistance(step.distance, units)}` : "";
      lines.push(`${number}. ${instruction(step)}${length}`);
    }
  });
  if (number === 0) lines.push("OSRM gave no turn-by-turn steps for this route.");
  if (number > MAX_STEPS) lines.push(`… ${number - MAX_STEPS} more steps left out; ask for a shorter stretch.`);
  return lines;
}
