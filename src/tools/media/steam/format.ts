/** Steam's amounts are hundredths of the currency (also for yen): 1999 USD → "$19.99". */
function money(hundredths: number, currency: string): string {
  const amount = hundredths / 100;
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** "$9.99 (-75% from $39.99)", or just "$39.99". */
export function priceWithDiscount(initial: number | null, final: number, currency: string): string {
  const now = money(final, currency);
  if (initial === null || initial <= final) return now;
  const percent = Math.round((1 - final / initial) * 100);
  return `${now} (-${percent}% from ${money(initial, currency)})`;
}

/** "2026-09-08" for Unix seconds. */
export function dateOf(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 10);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

const iso = (year: string, month: number, day: string) =>
  `${year}-${String(month + 1).padStart(2, "0")}-${day.padStart(2, "0")}`;

/**
 * The store's English release date as "2012-08-21": it writes "21 Aug, 2012" or "Aug 21, 2012" depending on
 * the country. Anything else ("Q3 2026", "Coming soon", "2026") is kept as it is.
 */
export function storeDate(text: string): string {
  const dayFirst = /^(\d{1,2}) ([A-Za-z]{3})[a-z]*\.?,? (\d{4})$/.exec(text.trim());
  const monthFirst = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})$/.exec(text.trim());
  const [day, monthName, year] = dayFirst
    ? [dayFirst[1]!, dayFirst[2]!, dayFirst[3]!]
    : monthFirst
      ? [monthFirst[2]!, monthFirst[1]!, monthFirst[3]!]
      : [];
  const month = MONTHS.indexOf(monthName?.toLowerCase() ?? "");
  return day && year && month >= 0 ? iso(year, month, day) : text.trim();
}

/** "Windows, macOS, Linux" from Steam's platform flags. */
export function platformNames(platforms: { windows?: boolean; mac?: boolean; linux?: boolean }): string {
  const names = [platforms.windows && "Windows", platforms.mac && "macOS", platforms.linux && "Linux"];
  return names.filter(Boolean).join(", ");
}

/** Steam counts playtime in minutes; people think in hours: "12.5 h". */
export function hours(minutes: number): string {
  return `${Number((minutes / 60).toFixed(1)).toLocaleString("en-US")} h`;
}

export const storeUrl = (appId: number) => `https://store.steampowered.com/app/${appId}/`;
