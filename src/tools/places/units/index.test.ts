import type { ServerResponse } from "node:http";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { type SeenRequest, sendJson } from "../../../../tests/support/local-http-server.js";
import {
  FRANKFURTER_EUR_JPY,
  FRANKFURTER_NOT_FOUND,
  FRANKFURTER_USD_EUR,
} from "../../../../tests/support/payloads/travel.js";

type Answer = (request: SeenRequest, response: ServerResponse) => void;

const sendText =
  (body: string, status = 200): Answer =>
  (_request, response) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(body);
  };

const it = test.extend<{ open: (frankfurter?: Answer) => Promise<{ convert: Convert; requests: SeenRequest[] }> }>({
  open: async ({ home, harnesses, httpServers }, use) => {
    await use(async (answer = sendText(FRANKFURTER_USD_EUR)) => {
      const frankfurter = await httpServers.start(answer);
      const harness = await harnesses.open({ home, env: { MARVIN_FRANKFURTER_URL: frankfurter.origin } });
      const convert: Convert = (value, from_unit, to_unit, outcome = "ok") =>
        harness[outcome]("convert_units", { value, from_unit, to_unit });
      return { convert, requests: frankfurter.requests };
    });
  },
});

type Convert = (value: number, from: string, to: string, outcome?: "ok" | "failure") => Promise<string>;

describe("convert_units between units", () => {
  it("converts lengths, masses, volumes, areas, times and data offline", async ({ open }) => {
    const { convert, requests } = await open();
    expect(await convert(10, "km", "mi")).toBe("10 km = 6.2137119 mi (length).");
    expect(await convert(5, "kg", "pounds")).toBe("5 kg = 11.023113 pounds (mass).");
    expect(await convert(3, "gallons", "l")).toBe("3 gallons = 11.356235 l (volume).");
    expect(await convert(1, "hectare", "acres")).toBe("1 hectare = 2.4710516 acres (area).");
    expect(await convert(20, "m²", "sq ft")).toBe("20 m² = 215.27821 sq ft (area).");
    expect(await convert(90, "minutes", "h")).toBe("90 minutes = 1.5 h (time).");
    expect(await convert(2, "GB", "MiB")).toBe("2 GB = 1907.3486 MiB (data).");
    expect(await convert(1, "cup", "ml")).toBe("1 cup = 236.58824 ml (volume).");
    expect(requests).toHaveLength(0);
  });

  it("reads temperatures as temperatures and speeds by their usual names", async ({ open }) => {
    const { convert } = await open();
    expect(await convert(100, "°C", "F")).toBe("100 °C = 212 F (temperature).");
    expect(await convert(-40, "fahrenheit", "celsius")).toBe("-40 fahrenheit = -40 celsius (temperature).");
    expect(await convert(300, "K", "degC")).toBe("300 K = 26.85 degC (temperature).");
    expect(await convert(60, "mph", "km/h")).toBe("60 mph = 96.56064 km/h (speed).");
    expect(await convert(20, "knots", "kph")).toBe("20 knots = 37.04 kph (speed).");
    expect(await convert(1, "kcal", "kJ")).toBe("1 kcal = 4.184 kJ (energy).");
  });

  it("refuses to convert between different kinds of quantity", async ({ open }) => {
    const { convert } = await open();
    expect(await convert(3, "km", "kg", "failure")).toBe(
      "Error in convert_units: km (length) and kg (mass) measure different things; they do not convert.",
    );
  });

  it("names a unit it does not know", async ({ open }) => {
    const { convert, requests } = await open();
    expect(await convert(3, "furlongs", "m", "failure")).toMatch(
      /^Error in convert_units: 'furlongs' is not a unit Marvin knows\. Use symbols or names such as km, mi,/,
    );
    expect(requests).toHaveLength(0);
  });
});

describe("convert_units between currencies", () => {
  it("converts at Frankfurter's latest rate and gives its date", async ({ open }) => {
    const { convert, requests } = await open();
    expect(await convert(100, "USD", "EUR")).toBe(
      "100.00 USD = 88.12 EUR (1 USD = 0.8812 EUR; reference rate of 2026-05-08, from Frankfurter).",
    );
    expect(requests.map((request) => request.url)).toEqual(["/v1/latest?base=USD&symbols=EUR"]);
  });

  it("takes lower-case codes and symbols, and rounds to the currency's own decimals", async ({ open }) => {
    const { convert, requests } = await open(sendText(FRANKFURTER_EUR_JPY));
    expect(await convert(10, "€", "jpy")).toBe(
      "10.00 EUR = 1685 JPY (1 EUR = 168.47 JPY; reference rate of 2026-05-08, from Frankfurter).",
    );
    expect(requests[0]!.url).toBe("/v1/latest?base=EUR&symbols=JPY");
  });

  it("needs no rate to convert a currency into itself", async ({ open }) => {
    const { convert, requests } = await open();
    expect(await convert(12.5, "CHF", "chf")).toBe("12.50 CHF = 12.50 CHF.");
    expect(requests).toHaveLength(0);
  });

  it("says which currencies Frankfurter covers when it does not know one", async ({ open }) => {
    const { convert } = await open((_request, response) => sendJson(response, FRANKFURTER_NOT_FOUND, 404));
    expect(await convert(5, "USD", "XAF", "failure")).toBe(
      "Error in convert_units: Frankfurter has no exchange rate between USD and XAF: it covers the currencies of " +
        "the European Central Bank's reference rates (about 30, such as EUR, USD, GBP, JPY, CHF, CNY); others " +
        "cannot be converted.",
    );
  });

  it("treats an answer without the asked-for rate as unknown", async ({ open }) => {
    const { convert } = await open(sendText('{"amount":1.0,"base":"USD","date":"2026-05-08","rates":{}}'));
    expect(await convert(5, "USD", "EUR", "failure")).toMatch(/Frankfurter has no exchange rate between USD and EUR/);
  });

  it("hands on Frankfurter's server error", async ({ open }) => {
    const { convert } = await open(sendText("<html><body>Bad gateway</body></html>", 502));
    expect(await convert(5, "USD", "EUR", "failure")).toMatch(
      /^Error in convert_units: Frankfurter answered HTTP 502 \(Bad Gateway\) — try again/,
    );
  });

  it("refuses an answer that is not a rate", async ({ open }) => {
    const { convert } = await open(sendText('{"amount":1.0,"base":"USD","date":"2026-05-08","rates":{"EUR":"n/a"}}'));
    expect(await convert(5, "USD", "EUR", "failure")).toMatch(
      /^Error in convert_units: Frankfurter sent an answer Marvin does not understand: rates\.EUR: .*MARVIN_FRANKFURTER_URL=/,
    );
  });
});
