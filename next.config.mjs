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
    "@mastra/libsql",
    "@mastra/pg",
    "@libsql/client",
  ],
  // A server action's arguments are read whole before it runs: the limit keeps anonymous posts
  // from costing more than the largest real decision (resume data as JSON in JSON, see LIMITS).
  experimental: { serverActions: { bodySizeLimit: "256kb" } },
  poweredByHeader: false,
  reactStrictMode: true,
  // On every response, pages and API routes alike (HSTS only in production builds).
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders({ production: process.env.NODE_ENV === "production" }) }];
  },
};

export default nextConfig;
