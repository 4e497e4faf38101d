import NextAuth from 'next-auth';
import { authOptions } from '@/server/trpc/auth-options';

// next-auth's sign-in, session and sign-out endpoints for the dashboard.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Handler = (request: Request, context: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>;

const handler: Handler = (request, context) => NextAuth(authOptions())(request, context);

export { handler as GET, handler as POST };
