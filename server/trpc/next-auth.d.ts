import type { DefaultSession } from 'next-auth';
import type { Role } from '@/server/db/generated/enums';

// What the dashboard keeps in the next-auth JWT and session (see auth-options.ts).
declare module 'next-auth' {
  interface Session {
    user: DefaultSession['user'] & { id: string };
    tenantId: string | null;
    role: Role | null;
    /** The server-side session (server/auth/web-sessions.ts) this cookie stands for. */
    sid?: string;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    userId: string;
    sid?: string;
    tenantId: string | null;
    role: Role | null;
  }
}
