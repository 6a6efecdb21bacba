import { marvinVersion } from "../../../shared/version.js";

/** Where a service operator can find out about Marvin (Nominatim and MusicBrainz require a contact). */
const MARVIN_CONTACT_URL = "https://www.npmjs.com/package/marvin-assistant";

/** `Marvin/0.1.0 (+https://…)`: names Marvin, its version and a contact URL. */
export function marvinUserAgent(): string {
  return `Marvin/${marvinVersion()} (+${MARVIN_CONTACT_URL})`;
}
