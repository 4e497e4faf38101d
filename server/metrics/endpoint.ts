// GET /api/metrics: Prometheus text, only with `Authorization: Bearer <METRICS_TOKEN>`
// (docs/operations.md "Metrics and tracing"). Without the setting the route does not exist (404); a missing or wrong token is 401
// problem+json. The token is compared in constant time (SHA-256 of both, timingSafeEqual).
import { createHash, timingSafeEqual } from 'node:crypto';
import { settings } from '@/server/config/settings';
import { newRequestId } from '@/server/lib/ids';
import { metrics } from './registry';

function problem(status: 401 | 404, code: string, title: string, detail: string): Response {
  const requestId = newRequestId();
  return new Response(
    JSON.stringify({ type: 'about:blank', title, status, code, detail, request_id: requestId }),
    {
      status,
      headers: {
        'Content-Type': 'application/problem+json',
        'X-Request-Id': requestId,
        ...(status === 401 ? { 'WWW-Authenticate': 'Bearer realm="metrics", error="invalid_token"' } : {}),
      },
    },
  );
}

const digest = (value: string) => createHash('sha256').update(value).digest();

export function metricsTokenMatches(expected: string, header: string | null): boolean {
  const match = /^Bearer (.+)$/.exec(header ?? '');
  if (!match) return false;
  return timingSafeEqual(digest(match[1]), digest(expected));
}

export async function handleMetricsRequest(request: Request): Promise<Response> {
  const token = settings().METRICS_TOKEN;
  if (!token) return problem(404, 'not_found', 'Not Found', 'No route matches GET /api/metrics');
  if (!metricsTokenMatches(token, request.headers.get('authorization'))) {
    return problem(
      401,
      'unauthenticated',
      'Unauthorized',
      'Authorization: Bearer <METRICS_TOKEN> is required',
    );
  }
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    status: 200,
    headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
  });
}
