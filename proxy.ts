import { type NextFetchEvent, type NextRequest, NextResponse } from 'next/server';
import { type NextRequestWithAuth, withAuth } from 'next-auth/middleware';
import { frameOriginsOfPage } from '@/server/domain/booking-page/pages';
import { newNonce, pageContentSecurityPolicy } from '@/server/http/content-security-policy';

/**
 * Every page gets a Content-Security-Policy with a fresh nonce (server/http/content-security-policy.ts):
 * set on the response for the browser, and on the request, where Next.js reads the nonce for its own
 * scripts and app/docs/route.ts for the reference's (`x-nonce`).
 */
async function withContentSecurityPolicy(request: NextRequest): Promise<NextResponse> {
  const nonce = newNonce();
  // The booking pages may be framed by their tenant's frame origins (GET|PATCH /tenant), and by no one
  // else; null for every other page (never framed: next.config.mjs sends X-Frame-Options DENY too).
  const frameOrigins = await frameOriginsOfPage(request.nextUrl.pathname);
  const policy = pageContentSecurityPolicy(nonce, {
    development: process.env.NODE_ENV === 'development',
    frameAncestors: frameOrigins ?? [],
  });
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('Content-Security-Policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', policy);
  if (frameOrigins?.length === 0) response.headers.set('X-Frame-Options', 'DENY');
  return response;
}

/**
 * Sends signed-out visitors of dashboard pages to /login before any page code runs. This only
 * checks that a valid session cookie exists; roles and tenant membership are checked by the
 * pages and tRPC against the database.
 */
const dashboard = withAuth(withContentSecurityPolicy, {
  pages: { signIn: '/login' },
  secret: process.env.AUTH_SECRET,
});

const DASHBOARD =
  /^\/(?:$|events(?:\/|$)|bookings(?:\/|$)|conversations(?:\/|$)|payments(?:\/|$)|settings(?:\/|$)|select-tenant$)/;

export default function proxy(request: NextRequest, event: NextFetchEvent) {
  return DASHBOARD.test(request.nextUrl.pathname)
    ? dashboard(request as NextRequestWithAuth, event)
    : withContentSecurityPolicy(request);
}

export const config = {
  // Pages only: not the APIs (REST sets its own headers), Next's static files or the public folder's.
  matcher: [
    '/((?!api/|_next/static/|_next/image|favicon\\.ico$|icon\\.svg$|apple-icon\\.png$|docs/scalar\\.js$).*)',
  ],
};
