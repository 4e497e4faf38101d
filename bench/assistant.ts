// What an assistant session costs per MCP call: the same tools/call (list_customer_bookings of one
// customer, 10 bookings) through the whole pipeline in-process (`handleApi`, no HTTP), once with the
// tenant's API key (the staff tool, by phone) and once with an assistant session token (the
// customer-bound tool, no input), in alternating rounds. The session's call does more by design: its
// token is read with its conversation on every request (never cached: an ended session or a resolved
// conversation must hold at once), its answer is the customer projection with its payments' status, and
// each of its calls is written to the audit log. `session_vs_key_mcp_call` is the median per-round
// ratio of the p50 latencies (session / key).
import { withBenchDatabase } from './_database';
import { type BenchResult, median, round } from './_results';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 300);
const PHONE = '+34600111222';

async function time(run: () => Promise<void>, n: number) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(samples.length * q))]);
  return { p50_us: at(0.5), p95_us: at(0.95) };
}

export function run(): Promise<BenchResult> {
  return withBenchDatabase('assistant', async () => {
    Object.assign(process.env, {
      API_RATE_LIMIT_PER_SECOND: '1000000',
      API_RATE_LIMIT_PER_TENANT_PER_SECOND: '1000000',
    });
    (await import('@/server/config/settings')).resetSettingsCache();
    const { createTenantWithAdmin } = await import('@/server/domain/tenants');
    const { operationContext } = await import('@/server/domain/context');
    const { createConversation } = await import('@/server/domain/conversations/create-conversation');
    const { createBooking } = await import('@/server/domain/bookings/create-booking');
    const { createAssistantSession } = await import(
      '@/server/domain/assistant-sessions/create-assistant-session'
    );
    const { permissionsOf } = await import('@/server/client-safe/permissions');
    const { handleApi } = await import('@/server/api/routes');

    const tenant = await createTenantWithAdmin({
      name: 'Assistant bench',
      adminEmail: 'bench@assistant.test',
      adminPassword: 'bench password long enough',
    });
    const ctx = {
      ...operationContext(tenant.tenantId, { type: 'api_key', id: 'key_bench' }),
      permissions: permissionsOf('admin'),
    };
    const conversation = await createConversation(ctx, {
      channel: 'web',
      contact: { name: 'Ada', phone: PHONE },
    });
    for (let i = 0; i < 10; i++) {
      const start = Date.parse('2027-03-01T09:00:00Z') + i * 86_400_000;
      await createBooking(ctx, {
        customer: { name: 'Ada', phone: PHONE },
        service: 'Check-up',
        start_at: new Date(start).toISOString(),
        end_at: new Date(start + 1_800_000).toISOString(),
      });
    }
    const session = await createAssistantSession(ctx, {
      conversation_id: conversation.id,
      ttl_seconds: 3600,
    });

    const call = (token: string, args: Record<string, unknown>) => async () => {
      const response = await handleApi(
        new Request('http://bench.local/api/v1/mcp', {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'X-Tenant-ID': tenant.tenantId,
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'list_customer_bookings', arguments: args },
          }),
        }),
      );
      const answer = (await response.json()) as {
        result?: { isError?: boolean; structuredContent?: { data: unknown[] } };
      };
      if (
        response.status !== 200 ||
        answer.result?.isError ||
        answer.result?.structuredContent?.data.length !== 10
      )
        throw new Error(`tools/call answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    };
    const withKey = call(tenant.apiKey, { phone: PHONE });
    const withSession = call(session.token, {});

    await time(withKey, 100); // warm-up: caches, prepared plans, JIT
    await time(withSession, 100);
    const rounds: { key: { p50_us: number; p95_us: number }; session: { p50_us: number; p95_us: number } }[] =
      [];
    for (let i = 0; i < ROUNDS; i++) {
      const key = await time(withKey, CALLS);
      const sessionRun = await time(withSession, CALLS);
      rounds.push({ key, session: sessionRun });
      console.log(
        `  round ${i + 1}: API key p50 ${key.p50_us} µs (p95 ${key.p95_us}), session p50 ${sessionRun.p50_us} µs ` +
          `(p95 ${sessionRun.p95_us}), ratio ${(sessionRun.p50_us / key.p50_us).toFixed(2)}`,
      );
    }
    const ratios = rounds.map((r) => r.session.p50_us / r.key.p50_us);
    const ratio = round(median(ratios));
    console.log(`MCP tools/call list_customer_bookings, in-process: session / API key p50 = ${ratio}`);
    return {
      ratios: { session_vs_key_mcp_call: ratio },
      raw: {
        key_p50_us: median(rounds.map((r) => r.key.p50_us)),
        session_p50_us: median(rounds.map((r) => r.session.p50_us)),
        key_p95_us: median(rounds.map((r) => r.key.p95_us)),
        session_p95_us: median(rounds.map((r) => r.session.p95_us)),
        round_ratios: ratios.map((r) => round(r)),
        calls_per_round: CALLS,
      },
    };
  });
}
