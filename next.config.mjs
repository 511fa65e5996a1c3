import createNextIntlPlugin from "next-intl/plugin";
import { MAX_REQUEST_BODY_BYTES } from "./lib/http/limits.mjs";
import { securityHeaders } from "./lib/http/security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native drivers and Mastra's Node-only modules are loaded by Node at run time, not bundled.
  serverExternalPackages: [
    "better-sqlite3",
    "pg",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "@prisma/schema-engine-wasm",
    "@mastra/core",
    // It nests its own @mastra/core (1.68.0): bundled, its imports would resolve to ours.
    "@mastra/client-js",
    "@mastra/libsql",
    "@mastra/pg",
    "@libsql/client",
    // Node-only SMTP (net, tls, dns): sends email from the maintenance loop.
    "nodemailer",
    // The store package reads its migrations from its own folder at run time.
    "@agent-approvals/mastra-store",
  ],
  // A server action's arguments are read whole before it runs: no more than any request may carry.
  experimental: { serverActions: { bodySizeLimit: MAX_REQUEST_BODY_BYTES } },
  poweredByHeader: false,
  reactStrictMode: true,
  // On every response, pages and API routes alike (HSTS only in production builds).
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders({ production: process.env.NODE_ENV === "production" }) }];
  },
};

// The language of each request (lib/i18n/request.ts): the user's choice, else Accept-Language, else English.
const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

export default withNextIntl(nextConfig);
