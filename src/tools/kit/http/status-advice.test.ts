import { describe, expect, test } from "vitest";
import { ServiceError } from "./service-error.js";
import { explainStatus, withStatusAdvice } from "./status-advice.js";

const refused = (status: number, message = `Example answered HTTP ${status}.`) =>
  new ServiceError(message, { service: "Example", kind: "status", status, excerpt: "Nope" });

describe("a service's advice for its error statuses", () => {
  test("rewords a status it has advice for, keeping the status and the client's error as the cause", () => {
    const original = refused(401);
    const explained = explainStatus(original, { 401: "it refused EXAMPLE_KEY. Check the key." });
    expect(explained).toBeInstanceOf(ServiceError);
    expect((explained as ServiceError).message).toBe(
      "Example answered HTTP 401: it refused EXAMPLE_KEY. Check the key.",
    );
    expect(explained).toMatchObject({ service: "Example", kind: "status", status: 401, cause: original });
  });

  test("leaves other statuses, other errors and advice that declines as they are", () => {
    const notFound = refused(404);
    expect(explainStatus(notFound, { 401: "check the key" })).toBe(notFound);
    const plain = new Error("not a service error");
    expect(explainStatus(plain, { 401: "check the key" })).toBe(plain);
    const forbidden = refused(403, "Example answered HTTP 403: no access.");
    const onlyRateLimits = { 403: (error: ServiceError) => (/rate limit/.test(error.message) ? "wait" : undefined) };
    expect(explainStatus(forbidden, onlyRateLimits)).toBe(forbidden);
  });

  test("a function reads the error, such as the excerpt of its body", async () => {
    const advice = { 403: (error: ServiceError) => `it said "${error.excerpt}".` };
    await expect(withStatusAdvice(advice, () => Promise.reject(refused(403)))).rejects.toThrow(
      'Example answered HTTP 403: it said "Nope".',
    );
    await expect(withStatusAdvice(advice, () => Promise.resolve(7))).resolves.toBe(7);
  });
});
