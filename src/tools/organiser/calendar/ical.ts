/** ical.js, loaded on first use: most sessions never touch the calendar. */
export type Ical = typeof import("ical.js")["default"];
export type IcalComponent = InstanceType<Ical["Component"]>;
export type IcalEvent = InstanceType<Ical["Event"]>;
export type IcalTime = InstanceType<Ical["Time"]>;

export async function loadIcal(): Promise<Ical> {
  return (await import("ical.js")).default;
}
