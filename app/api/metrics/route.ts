import { handleMetricsRequest } from '@/server/metrics/endpoint';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Prometheus scrape endpoint (docs/operations.md "Metrics and tracing"). */
export function GET(request: Request): Promise<Response> {
  return handleMetricsRequest(request);
}
