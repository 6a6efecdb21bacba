import { z } from "zod";
import type { Env } from "../../../shared/env.js";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { type ExternalService, http } from "../../kit/http/index.js";
import type { PlaceHit } from "./place-hits.js";

const GOOGLE_PLACES: ExternalService = {
  name: "Google Places",
  envVar: "MARVIN_GOOGLE_PLACES_URL",
  defaultUrl: "https://places.googleapis.com",
};

export const GOOGLE_KEY_VARIABLE = "GOOGLE_PLACES_API_KEY";

/** The fields asked for; Google bills by the most expensive one, and rating, hours and phone are what people ask. */
const SEARCH_FIELDS = [
  "id",
  "displayName",
  "formattedAddress",
  "location",
  "primaryTypeDisplayName",
  "rating",
  "userRatingCount",
  "currentOpeningHours.openNow",
  "businessStatus",
  "nationalPhoneNumber",
  "websiteUri",
].map((field) => `places.${field}`);

const localizedText = z.object({ text: z.string(), languageCode: z.string().optional() });

const place = z.object({
  id: z.string(),
  displayName: localizedText.optional(),
  formattedAddress: z.string().optional(),
  location: z.object({ latitude: z.number(), longitude: z.number() }),
  primaryTypeDisplayName: localizedText.optional(),
  rating: z.number().optional(),
  userRatingCount: z.number().optional(),
  currentOpeningHours: z.object({ openNow: z.boolean().optional() }).optional(),
  businessStatus: z.string().optional(),
  nationalPhoneNumber: z.string().optional(),
  websiteUri: z.string().optional(),
});

/** Google leaves `places` out altogether when nothing matched: the answer is `{}`. */
const searchAnswer = z.object({ places: z.array(place).default([]) });

/** google.rpc.Status, as every Google API sends it with an error status. */
const googleError = z.object({
  error: z.object({
    code: z.number(),
    message: z.string(),
    status: z.string(),
    details: z.array(z.object({ "@type": z.string(), reason: z.string().optional() })).optional(),
  }),
});

/** True when the key itself is the problem (not the question asked). */
function blamesKey(code: number, reason: string | undefined): boolean {
  return code === 401 || code === 403 || (reason ?? "").startsWith("API_KEY");
}

/** Google Places said no: a bad key, an API not enabled, a bad argument. */
export class GoogleRefusal extends ToolError {
  readonly isKeyProblem: boolean;

  constructor(
    readonly code: number,
    /** "PERMISSION_DENIED", "INVALID_ARGUMENT"… */
    readonly status: string,
    /** The ErrorInfo reason, when Google gave one: "API_KEY_INVALID", "SERVICE_DISABLED"… */
    readonly reason: string | undefined,
    readonly googleMessage: string,
  ) {
    const isKeyProblem = blamesKey(code, reason);
    const advice = isKeyProblem ? "Run setup_google_auth to check the key step by step." : "Fix the arguments.";
    super(
      `Google Places refused the request (HTTP ${code} ${status}${reason ? `, ${reason}` : ""}): ` +
        `"${googleMessage}". ${advice}`,
    );
    this.isKeyProblem = isKeyProblem;
  }
}

/** The Places key from the environment; undefined when none is set. */
export function googlePlacesKey(env: Env): string | undefined {
  return env[GOOGLE_KEY_VARIABLE]?.trim() || undefined;
}

type Method = "searchText" | "searchNearby";

/** One Places API (New) search; the answer, or a GoogleRefusal for a 4xx with Google's error body. */
async function search<Schema extends z.ZodType>(
  context: ToolContext,
  key: string,
  request: { method: Method; body: object; fields: readonly string[] },
  schema: Schema,
): Promise<z.output<Schema>> {
  const { method, body, fields } = request;
  const response = await http(context).send(
    { service: GOOGLE_PLACES, path: `/v1/places:${method}` },
    {
      json: body,
      headers: { "x-goog-api-key": key, "x-goog-fieldmask": fields.join(",") },
      passStatuses: [400, 401, 403, 404],
    },
  );
  if (response.status < 400) return response.json(schema);
  const { error } = await response.json(googleError);
  const reason = error.details?.find((detail) => detail.reason)?.reason;
  throw new GoogleRefusal(error.code, error.status, reason, error.message);
}

function toHit(found: z.output<typeof place>): PlaceHit {
  const operating = !found.businessStatus || found.businessStatus === "OPERATIONAL";
  return {
    name: found.displayName?.text ?? "(no name)",
    kind: found.primaryTypeDisplayName?.text ?? "",
    address: found.formattedAddress ?? "",
    latitude: found.location.latitude,
    longitude: found.location.longitude,
    rating: found.rating,
    ratingCount: found.userRatingCount,
    openNow: found.currentOpeningHours?.openNow,
    closed: operating ? undefined : found.businessStatus,
    phone: found.nationalPhoneNumber,
    website: found.websiteUri,
  };
}

interface Circle {
  latitude: number;
  longitude: number;
  radius: number;
}

const circleOf = ({ latitude, longitude, radius }: Circle) => ({ circle: { center: { latitude, longitude }, radius } });

interface GoogleTextQuery {
  text: string;
  maxResults: number;
  openNow: boolean;
  near: Circle | undefined;
}

export async function googleTextSearch(context: ToolContext, key: string, query: GoogleTextQuery) {
  const body = {
    textQuery: query.text,
    pageSize: query.maxResults,
    ...(query.openNow ? { openNow: true } : {}),
    ...(query.near ? { locationBias: circleOf(query.near) } : {}),
  };
  const request = { method: "searchText", body, fields: SEARCH_FIELDS } as const;
  const { places } = await search(context, key, request, searchAnswer);
  return places.map(toHit);
}

interface GoogleNearbyQuery {
  types: string[];
  maxResults: number;
  rankBy: "POPULARITY" | "DISTANCE";
  area: Circle;
}

export async function googleNearbySearch(context: ToolContext, key: string, query: GoogleNearbyQuery) {
  const body = {
    includedTypes: query.types,
    maxResultCount: query.maxResults,
    rankPreference: query.rankBy,
    locationRestriction: circleOf(query.area),
  };
  const request = { method: "searchNearby", body, fields: SEARCH_FIELDS } as const;
  const { places } = await search(context, key, request, searchAnswer);
  return places.map(toHit);
}

/**
 * Checks a key with the cheapest request there is (a Text Search asking only for place IDs);
 * resolves when Google accepts it, throws the GoogleRefusal when it does not.
 */
export async function checkGoogleKey(context: ToolContext, key: string): Promise<void> {
  const request = { method: "searchText", body: { textQuery: "coffee", pageSize: 1 }, fields: ["places.id"] } as const;
  await search(context, key, request, z.object({ places: z.array(z.object({ id: z.string() })).optional() }));
}
