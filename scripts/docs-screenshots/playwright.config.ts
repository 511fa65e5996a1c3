import { defineConfig } from "@playwright/test";
import { SCREENSHOTS_DATABASE_URL, SCREENSHOTS_PORT, SCREENSHOTS_URL } from "./settings.ts";

/**
 * `npm run docs:screenshots`: the demo as `npm run demo` makes it (migrations, the seeded agents'
 * waiting calls, the demo accounts, `CONSOLE_DEMO=1 node server.mjs`), on a database of its own,
 * then every picture the docs show, taken by take.spec.ts. Not part of `npm test` (playwright.config.ts
 * there runs e2e/). Needs a production build, which the npm script makes first.
 */
export default defineConfig({
  testDir: ".",
  testMatch: "take.spec.ts",
  outputDir: "../../test-results/docs-screenshots",
  workers: 1,
  timeout: 240_000,
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  use: {
    baseURL: SCREENSHOTS_URL,
    actionTimeout: 20_000,
    navigationTimeout: 60_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        // The same text rendering on every machine that takes them: no subpixel colour fringes.
        "--disable-lcd-text",
        "--font-render-hinting=none",
      ],
    },
  },
  webServer: {
    command: [
      "node --import tsx scripts/docs-screenshots/fresh-database.ts",
      "npm run db:deploy",
      "npm run seed -- --demo-accounts",
      `node server.mjs --hostname 127.0.0.1 --port ${SCREENSHOTS_PORT}`,
    ].join(" && "),
    cwd: "../..",
    url: SCREENSHOTS_URL,
    env: { DATABASE_URL: SCREENSHOTS_DATABASE_URL, CONSOLE_DEMO: "1", NEXT_TELEMETRY_DISABLED: "1" },
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
