import { distanceMeters } from "../../kit/geo/distance.js";
import type { Coordinates } from "../../kit/geo/location.js";

/** One place found, whichever service found it. Fields a service does not know are left out. */
export interface PlaceHit {
  name: string;
  /** "Café", "amenity=cafe", "railway/station". */
  kind: string;
  address: string;
  latitude: number;
  longitude: number;
  rating?: number | undefined;
  ratingCount?: number | undefined;
  openNow?: boolean | undefined;
  /** OpenStreetMap's opening_hours text: "Mo-Fr 07:00-18:30". */
  openingHours?: string | undefined;
  /** "CLOSED_PERMANENTLY" and the like; left out for an operating place. */
  closed?: string | undefined;
  phone?: string | undefined;
  website?: string | undefined;
}

function formatDistance(meters: number): string {
  return meters < 1000 ? `${Math.round(meters)} m` : `${Number((meters / 1000).toFixed(1))} km`;
}

function formatRating({ rating, ratingCount }: PlaceHit): string {
  if (rating === undefined) return "";
  return `${rating}★${ratingCount !== undefined ? ` (${ratingCount} reviews)` : ""}`;
}

function headline(hit: PlaceHit, index: number, center: Coordinates | undefined): string {
  const facts = [
    hit.kind,
    formatRating(hit),
    hit.openNow !== undefined && (hit.openNow ? "open now" : "closed now"),
    hit.closed?.toLowerCase().replace(/_/g, " "),
    center && formatDistance(distanceMeters(center, hit)),
  ].filter(Boolean);
  return `${index + 1}. ${hit.name}${facts.length ? ` — ${facts.join(" · ")}` : ""}`;
}

function formatHit(hit: PlaceHit, index: number, center: Coordinates | undefined): string {
  const details = [
    hit.address,
    `${hit.latitude}, ${hit.longitude}`,
    hit.openingHours && `hours: ${hit.openingHours}`,
    hit.phone,
    hit.website,
  ].filter(Boolean);
  return `${headline(hit, index, center)}\n   ${details.join(" · ")}`;
}

/** Numbered places; with a center, each says how far it is from there. */
export function formatHits(hits: readonly PlaceHit[], center?: Coordinates): string {
  return hits.map((hit, index) => formatHit(hit, index, center)).join("\n");
}
