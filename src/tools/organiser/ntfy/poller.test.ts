import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { pollSubscriptions } from "./poller.js";

describe("pollSubscriptions", () => {
  test("says the server gave no answer in time, whichever limit ran out first", async ({ httpServers, tempDirs }) => {
    const silent = await httpServers.start(() => undefined); // accepts, never answers
    const path = join(await tempDirs.make("marvin-ntfy-"), "ntfy_subscriptions.json");
    writeFileSync(path, JSON.stringify({ "family-x7Qp": { label: "Family", url: `${silent.origin}/family-x7Qp` } }));
    const expected = `Could not check ntfy topic 'Family': no answer from ${silent.origin} in time`;
    // The client's own time limit (here 0.3 s) runs out before the caller's wait.
    const env = { MARVIN_NTFY_URL: silent.origin, MARVIN_HTTP_TIMEOUT: "0.3" };
    const clientFirst = await pollSubscriptions(path, env, AbortSignal.timeout(10_000));
    expect(clientFirst.problems).toEqual([expected]);
    // The caller's wait runs out first.
    const callerFirst = await pollSubscriptions(path, { MARVIN_NTFY_URL: silent.origin }, AbortSignal.timeout(300));
    expect(callerFirst.problems).toEqual([expected]);
  });
});
