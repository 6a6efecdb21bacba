/**
 * The HTTP client every tool that calls an external service uses. A domain declares its service
 * once, and a handler asks through `http(context)`:
 *
 * ```ts
 * const OPEN_METEO: ExternalService = {
 *   name: "Open-Meteo",
 *   envVar: "MARVIN_OPEN_METEO_URL",
 *   defaultUrl: "https://api.open-meteo.com",
 * };
 * const forecast = z.object({ current: z.object({ temperature_2m: z.number() }) });
 *
 * const query = { latitude, longitude, current: "temperature_2m" };
 * const data = await http(context).getJson(OPEN_METEO, "/v1/forecast", query, forecast);
 * ```
 *
 * Every failure is a ServiceError whose message names the service and says what to do. URLs the
 * model chooses go through `send({ url })` or `download({ url }, file)`, where private and local
 * addresses are refused (MARVIN_ALLOW_PRIVATE_URLS=1 lifts that).
 */

export { refusedAddressReason } from "../../../shared/address-class.js";
export type { DownloadOptions, HttpClient, HttpClientOptions } from "./client.js";
export { createHttpClient, DOWNLOAD_MAX_BYTES, DOWNLOAD_TIMEOUT_MS, http } from "./client.js";
export { describeBytes } from "./failures.js";
export type { HttpMethod, RequestOptions, Target } from "./request-plan.js";
export { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS } from "./request-plan.js";
export type { HttpResponse, ProgressCallback } from "./response.js";
export type { ExternalService, QueryParams, QueryValue } from "./service.js";
export { encodeQuery, joinUrl, serviceBaseUrl, serviceUrl } from "./service.js";
export type { ServiceErrorKind } from "./service-error.js";
export { ServiceError } from "./service-error.js";
export type { StatusAdvice } from "./status-advice.js";
export { explainStatus, withStatusAdvice } from "./status-advice.js";
export { checkPublicUrl } from "./url-guard.js";
export { marvinUserAgent } from "./user-agent.js";
