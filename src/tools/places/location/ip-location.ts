import { z } from "zod";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { type ExternalService, http } from "../../kit/http/index.js";

/** ip-api.com: free without a key, but only over plain HTTP (HTTPS is for paying users). */
const IP_API: ExternalService = {
  name: "ip-api.com",
  envVar: "MARVIN_IPGEO_URL",
  defaultUrl: "http://ip-api.com",
};

const FIELDS = "status,message,country,regionName,city,lat,lon,timezone,isp";

/** ip-api.com answers HTTP 200 either way; `status` says whether it found the address. */
const answer = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("success"),
    country: z.string(),
    regionName: z.string(),
    city: z.string(),
    lat: z.number(),
    lon: z.number(),
    timezone: z.string(),
    isp: z.string(),
  }),
  /** `message` is "private range", "reserved range" or "invalid query". */
  z.object({ status: z.literal("fail"), message: z.string() }),
]);

interface IpLocation {
  latitude: number;
  longitude: number;
  /** "Bern, Bern, Switzerland" */
  place: string;
  timezone: string;
  isp: string;
}

/** Where the internet sees this machine: the city of its public IP address (often of the provider's hub). */
export async function locateByIp(context: ToolContext): Promise<IpLocation> {
  const found = await http(context).getJson(IP_API, "/json", { fields: FIELDS }, answer);
  if (found.status === "fail") {
    throw new ToolError(
      `${IP_API.name} could not place this machine's address (${found.message}). Ask the user where they are, ` +
        'or use a saved place such as "home" (list_places).',
    );
  }
  const place = [...new Set([found.city, found.regionName, found.country].filter(Boolean))].join(", ");
  return { latitude: found.lat, longitude: found.lon, place, timezone: found.timezone, isp: found.isp };
}
