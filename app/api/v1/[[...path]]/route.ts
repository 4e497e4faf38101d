import { handleApi } from '@/server/api/routes';

// Every /api/v1 request goes through one dispatcher (server/http/dispatch.ts).
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handleApi;
export const POST = handleApi;
export const PATCH = handleApi;
export const PUT = handleApi;
export const DELETE = handleApi;
