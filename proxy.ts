import { withAuth } from 'next-auth/middleware';

/**
 * Sends signed-out visitors of dashboard pages to /login before any page code runs. This only
 * checks that a valid session cookie exists; roles and tenant membership are checked by the
 * pages and tRPC against the database.
 */
export default withAuth({
  pages: { signIn: '/login' },
  secret: process.env.AUTH_SECRET,
});

export const config = {
  matcher: [
    '/bookings/:path*',
    '/conversations/:path*',
    '/payments/:path*',
    '/settings/:path*',
    '/select-tenant',
  ],
};
