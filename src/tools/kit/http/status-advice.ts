import { ServiceError } from "./service-error.js";

/**
 * What a service's error status means and what to do about it, said after "<service> answered HTTP <status>: ". A
 * function may read the error (its excerpt, its message) and give undefined to leave the client's own words.
 */
type Advice = string | ((error: ServiceError) => string | undefined);

/** One service's advice for the error statuses it is known to answer with (401 → "check OMDB_API_KEY"). */
export type StatusAdvice = Readonly<Partial<Record<number, Advice>>>;

/** `error` in the service's own words when its status has advice; any other error as it is. */
export function explainStatus(error: unknown, advice: StatusAdvice): unknown {
  if (!(error instanceof ServiceError) || error.status === undefined) return error;
  const entry = advice[error.status];
  const words = typeof entry === "function" ? entry(error) : entry;
  if (words === undefined) return error;
  return new ServiceError(`${error.service} answered HTTP ${error.status}: ${words}`, {
    service: error.service,
    kind: error.kind,
    status: error.status,
    ...(error.body === undefined ? {} : { body: error.body }),
    cause: error,
  });
}

/** What `request` gives, or its failure explained with the service's advice. */
export async function withStatusAdvice<T>(advice: StatusAdvice, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw explainStatus(error, advice);
  }
}
