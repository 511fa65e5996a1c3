import { defineConfig, devices, type PlaywrightTestConfig } from "@playwright/test";
import {
  E2E_AUTH_SECRET,
  E2E_EVIDENCE_KEY,
  E2E_DATABASE_URL,
  E2E_MASTRA_SERVER_PORT,
  E2E_MASTRA_SERVER_TOKEN,
  E2E_PORT,
  E2E_REMOTE,
  E2E_REMOTE_DATABASE_URL,
  E2E_REMOTE_PORT,
  REVIEWER_STATE,
} from "./e2e/support/env.ts";

/**
 * End-to-end suite: Debian's Chromium (Playwright cannot download browsers here) against the built
 * console (server.mjs, as `npm start` runs it) on its own freshly seeded SQLite database. Build
 * first: `npx next build`.
 */
const baseURL = `http://127.0.0.1:${E2E_PORT}`;
const mastraServerURL = `http://127.0.0.1:${E2E_MASTRA_SERVER_PORT}`;

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results",
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  // 2 cores: the server, the browser and the agents the fixtures run all share them. Three workers
  // were tried (2026-12-07): 11.3 min instead of 12.0, and the extra load had a decision's answer in
  // e2e/40 arrive after a list read had already dropped its row. Two.
  workers: Number(process.env.E2E_WORKERS || 2),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["html", { outputFolder: "playwright-report", open: "never" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    video: "off",
    actionTimeout: 10_000,
    navigationTimeout: 30_000,
  },
  projects: [
    // Signs in once as the demo reviewer; the specs start from that browser state.
    { name: "sign-in", testMatch: "auth.setup.ts", use: { launchOptions: chromiumLaunch() } },
    {
      name: "chromium",
      dependencies: ["sign-in"],
      use: {
        ...devices["Desktop Chrome"],
        storageState: REVIEWER_STATE,
        launchOptions: chromiumLaunch(),
      },
    },
  ],
  webServer: [
    {
      // A fresh, seeded database, then the built console (run `next build` before).
      command: `npm run e2e:prepare && node server.mjs --hostname 127.0.0.1 --port ${E2E_PORT}`,
      url: baseURL,
      // One client IP (no proxy in front) signs in many times here: the per-minute sign-in limit is
      // raised for the suite; tests/auth checks the real one.
      env: {
        DATABASE_URL: E2E_DATABASE_URL,
        NEXT_TELEMETRY_DISABLED: "1",
        BETTER_AUTH_SECRET: E2E_AUTH_SECRET,
        EVIDENCE_SIGNING_KEY: E2E_EVIDENCE_KEY,
        AUTH_SIGN_IN_ATTEMPTS_PER_MINUTE: "1000",
        // The shortest review target, so that e2e/21-overdue can watch calls become overdue.
        REVIEW_SLA_MINUTES: "1",
        // e2e/28-webhooks' receiver listens on 127.0.0.1, an address refused by default (SSRF).
        WEBHOOKS_ALLOW_PRIVATE: "1",
      },
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    // Remote mode, for e2e/27-remote-mode.spec.ts only (none with E2E_REMOTE=0): the example Mastra
    // server on a database of its own (prepared by e2e:prepare above; Playwright starts these one
    // after the other), then a console with no agents of its own that decides through it.
    ...remoteModeServers(),
  ],
});

type WebServer = Exclude<NonNullable<PlaywrightTestConfig["webServer"]>, unknown[]>;

function remoteModeServers(): WebServer[] {
  if (!E2E_REMOTE) return [];
  return [
    {
      command: `node --import tsx examples/mastra-server/server.ts`,
      url: `${mastraServerURL}/health`,
      env: {
        APPROVALS_DATABASE_URL: E2E_REMOTE_DATABASE_URL,
        PORT: String(E2E_MASTRA_SERVER_PORT),
        MASTRA_SERVER_TOKEN: E2E_MASTRA_SERVER_TOKEN,
      },
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: `node server.mjs --hostname 127.0.0.1 --port ${E2E_REMOTE_PORT}`,
      url: `http://127.0.0.1:${E2E_REMOTE_PORT}`,
      env: {
        DATABASE_URL: E2E_REMOTE_DATABASE_URL,
        NEXT_TELEMETRY_DISABLED: "1",
        BETTER_AUTH_SECRET: E2E_AUTH_SECRET,
        AUTH_SIGN_IN_ATTEMPTS_PER_MINUTE: "1000",
        MASTRA_SERVER_URL: mastraServerURL,
        MASTRA_SERVER_TOKEN: E2E_MASTRA_SERVER_TOKEN,
      },
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
    },
  ];
}

function chromiumLaunch() {
  return {
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
    ],
  };
}
