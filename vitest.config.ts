import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "tests/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    reporters: ["default", "./tests/support/summary-reporter.ts"],
  },
});
