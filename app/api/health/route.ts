import { settingsProblems } from '@/server/config/settings';
import { checkHealth } from '@/server/health';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// 200 when the database answers; 503 otherwise, naming each setting problem that keeps the
// service from serving (a serverless deployment missing DATABASE_URL, for instance).
export async function GET(): Promise<Response> {
  const problems = settingsProblems();
  if (problems.length > 0) return Response.json({ status: 'misconfigured', problems }, { status: 503 });
  const healthy = await checkHealth();
  return Response.json(healthy ? { status: 'ok' } : { status: 'unavailable' }, {
    status: healthy ? 200 : 503,
  });
}
