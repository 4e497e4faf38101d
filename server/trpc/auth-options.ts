// Dashboard sign-in (next-auth 4, Credentials + JWT cookie). The password check is the REST login's
// own (`verifyPasswordLogin`), so failures are counted and rate limited in one place. The JWT holds
// the user and the chosen tenant; the role in it is only a hint for the UI — every tRPC request and
// every protected page re-reads the membership from the database.
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { verifyPasswordLogin } from '@/server/auth/sessions';
import { endWebSession, startWebSession, WEB_SESSION_TTL_SECONDS } from '@/server/auth/web-sessions';
import { settings } from '@/server/config/settings';
import type { Role } from '@/server/db/generated/enums';
import { clientAddressOf } from '@/server/http/client-address';
import { AppError } from '@/server/lib/errors';
import { safeCallbackPath } from '@/server/trpc/callback-url';
import { findMembership } from '@/server/trpc/find-membership';

export const SIGN_IN_ERRORS = { invalid: 'CredentialsSignin', rateLimited: 'rate_limited' } as const;

export function authOptions(): NextAuthOptions {
  return {
    secret: settings().AUTH_SECRET,
    session: { strategy: 'jwt', maxAge: WEB_SESSION_TTL_SECONDS },
    // Behind https (AUTH_URL), the session cookie is Secure (and __Secure- prefixed).
    useSecureCookies: dashboardUrl().protocol === 'https:',
    pages: { signIn: '/login', error: '/login' },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        credentials: {
          email: { label: 'Email', type: 'email' },
          password: { label: 'Password', type: 'password' },
        },
        async authorize(credentials, req) {
          if (!credentials?.email || !credentials.password) return null;
          try {
            const user = await verifyPasswordLogin({
              email: credentials.email,
              password: credentials.password,
              ip: clientAddressOf(req?.headers?.['x-forwarded-for']),
            });
            const only = user.memberships.length === 1 ? user.memberships[0] : undefined;
            return {
              id: user.id,
              email: user.email,
              name: user.name,
              tenantId: only?.tenantId ?? null,
              role: only?.role ?? null,
            };
          } catch (error) {
            if (error instanceof AppError && error.code === 'invalid_credentials') return null;
            // next-auth hands a thrown message to the client as `error`; the login page explains it.
            if (error instanceof AppError && error.code === 'rate_limited')
              throw new Error(SIGN_IN_ERRORS.rateLimited);
            throw error;
          }
        },
      }),
    ],
    callbacks: {
      // Where next-auth sends the browser after signing in or out: a path of this site only.
      redirect({ url, baseUrl }) {
        return `${baseUrl}${safeCallbackPath(url, baseUrl)}`;
      },
      async jwt({ token, user, trigger, session }) {
        if (user) {
          const u = user as { id: string; tenantId?: string | null; role?: Role | null };
          token.userId = u.id;
          token.sid = await startWebSession(u.id);
          token.tenantId = u.tenantId ?? null;
          token.role = u.role ?? null;
        }
        if (trigger === 'update' && typeof session?.tenantId === 'string' && token.userId) {
          // Switching tenant: accept only a tenant this user belongs to, checked in the database.
          const membership = await findMembership(token.userId, session.tenantId);
          if (membership) {
            token.tenantId = membership.tenantId;
            token.role = membership.role;
          }
        }
        return token;
      },
      async session({ session, token }) {
        return {
          ...session,
          user: { ...session.user, id: token.userId },
          tenantId: token.tenantId ?? null,
          role: token.role ?? null,
          sid: token.sid,
        };
      },
    },
    events: {
      // Signing out ends the session on the server too: the cookie, if kept, no longer works.
      async signOut({ token }) {
        await endWebSession(token?.sid);
      },
    },
  };
}

/** The dashboard's public URL (AUTH_URL; the launcher sets NEXTAUTH_URL from it). */
function dashboardUrl(): URL {
  return new URL(settings().AUTH_URL ?? process.env.NEXTAUTH_URL ?? 'http://localhost:3000');
}
