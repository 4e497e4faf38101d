// A customer's tap in WhatsApp, answered: the time from Meta's webhook carrying an `interactive.list_reply`
// (a tap on an offer's row) to the stand-in Graph API receiving the reply (Confirm / Other times), with
// the time held as a pending booking in between: the inbound route, the `conversation.tap` timer woken
// by NOTIFY in the background runtime, the atomic placement, and the reply's send. Each tap is a new
// customer's on a new offer, in-process (`handleApi`, no HTTP in front) with a loopback Graph stand-in.
// The baseline, in the same rounds: an agent's text reply through POST /conversations/{id}/messages to
// the same stand-in (one request, one send). `tap_vs_send_p50` is the median per-round ratio of the
// p50s; `tap_p50_ms` / `tap_p95_ms` are the tap's absolute latencies (contract: answered within 5 s).
import { withBenchDatabase } from './_database';
import { type BenchResult, median, round } from './_results';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TAPS = Number(process.env.BENCH_TAPS ?? 40);
const SECRET = 'bench-whatsapp-app-secret';

const quantile = (samples: number[], q: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
};

export function run(): Promise<BenchResult> {
  return withBenchDatabase('whatsapp', async () => {
    const { startFakeGraph, whatsappPayload } = await import('@/test/support/fake-graph');
    const graph = await startFakeGraph();
    Object.assign(process.env, {
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_APP_SECRET: SECRET,
      API_RATE_LIMIT_PER_SECOND: '1000000',
      API_RATE_LIMIT_PER_TENANT_PER_SECOND: '1000000',
    });
    (await import('@/server/config/settings')).resetSettingsCache();
    const { createTenantWithAdmin } = await import('@/server/domain/tenants');
    const { handleApi } = await import('@/server/api/routes');
    const { startTimerWorker } = await import('@/server/runtime/timers/worker');
    const { forTenant } = await import('@/server/db/tenant-scope');
    const { hubSignature } = await import('@/server/whatsapp/signature');

    const tenant = await createTenantWithAdmin({
      name: 'WhatsApp bench',
      adminEmail: 'bench@whatsapp.test',
      adminPassword: 'bench password long enough',
    });
    const call = async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const raw = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const response = await handleApi(
        new Request(`http://bench.local/api/v1${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${tenant.apiKey}`,
            'X-Tenant-ID': tenant.tenantId,
            'Content-Type': 'application/json',
            ...headers,
          },
          body: raw,
        }),
      );
      const text = await response.text();
      if (response.status >= 300)
        throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : null;
    };
    const phoneNumberId = '555000111';
    await call('POST', '/channels', {
      type: 'whatsapp',
      phone_number_id: phoneNumberId,
      access_token: 'bench-token',
      display_name: 'Bench',
    });
    const everyDay = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
    );
    const resource = await call('POST', '/resources', {
      name: 'Chair',
      kind: 'staff',
      time_zone: 'UTC',
      weekly_hours: everyDay,
    });
    const service = await call('POST', '/services', {
      name: 'Cut',
      duration_minutes: 15,
      resource_ids: [resource.id],
    });

    const webhook = (messages: object[], contacts: object[] = []) => {
      const payload = JSON.stringify(whatsappPayload(phoneNumberId, { messages, contacts }));
      return call('POST', '/channels/whatsapp/webhook', payload, {
        'X-Hub-Signature-256': hubSignature(payload, SECRET),
      });
    };
    let seq = 0;
    const sendsTo = (phone: string) =>
      graph.requests.filter((r) => r.method === 'POST' && (r.body as { to?: string })?.to === phone).length;
    /** Resolves once the stand-in has received `count` sends to `phone`. */
    const until = async (phone: string, count: number) => {
      const deadline = Date.now() + 10_000;
      while (sendsTo(phone) < count) {
        if (Date.now() > deadline) throw new Error(`no reply to ${phone} within 10 s`);
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    /** A customer who wrote, with an offer of one day's times. */
    const offered = async () => {
      const phone = `3460${String(1_000_000 + ++seq)}`;
      const at = String(Math.floor(Date.now() / 1000));
      await webhook(
        [{ from: phone, id: `wamid.IN${seq}`, timestamp: at, type: 'text', text: { body: 'Hi' } }],
        [{ wa_id: phone, profile: { name: `Customer ${seq}` } }],
      );
      const conversation = await forTenant(tenant.tenantId).conversation.findFirstOrThrow({
        where: { contactPhone: phone },
      });
      // Days from tomorrow, 60 in turn: each has 96 free quarter-hours, one taken per tap.
      const date = new Date(Date.now() + (1 + (seq % 60)) * 86_400_000).toISOString().slice(0, 10);
      const offer = await call('POST', `/conversations/${conversation.id}/offers`, {
        service_id: service.id,
        date,
        days: 1,
      });
      return { phone, conversationId: conversation.id, optionId: offer.options[3].id as string };
    };
    const tapOnce = async () => {
      const { phone, optionId } = await offered();
      const before = sendsTo(phone);
      const started = performance.now();
      await webhook([
        {
          from: phone,
          id: `wamid.TAP${seq}`,
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: 'interactive',
          interactive: { type: 'list_reply', list_reply: { id: optionId, title: 'a time', description: '' } },
        },
      ]);
      await until(phone, before + 1);
      return performance.now() - started;
    };
    const sendOnce = async () => {
      const { phone, conversationId } = await offered();
      const before = sendsTo(phone);
      const started = performance.now();
      await call('POST', `/conversations/${conversationId}/messages`, { text: 'See you then' });
      await until(phone, before + 1);
      return performance.now() - started;
    };

    const worker = await startTimerWorker();
    try {
      for (let i = 0; i < 5; i++) {
        await tapOnce(); // warm-up: caches, prepared plans, JIT
        await sendOnce();
      }
      const rounds: { tap: number[]; send: number[] }[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const tap: number[] = [];
        const send: number[] = [];
        for (let i = 0; i < TAPS; i++) {
          tap.push(await tapOnce());
          send.push(await sendOnce());
        }
        rounds.push({ tap, send });
        console.log(
          `  round ${r + 1}: tap → hold → reply p50 ${quantile(tap, 0.5).toFixed(1)} ms (p95 ` +
            `${quantile(tap, 0.95).toFixed(1)}), agent send p50 ${quantile(send, 0.5).toFixed(1)} ms`,
        );
      }
      const taps = rounds.flatMap((r) => r.tap);
      const ratio = round(median(rounds.map((r) => quantile(r.tap, 0.5) / quantile(r.send, 0.5))));
      const held = await call('GET', `/bookings?limit=1&status=pending`);
      if (held.data.length === 0) throw new Error('no tap held a booking');
      console.log(
        `WhatsApp tap → hold → reply: p50 ${quantile(taps, 0.5).toFixed(1)} ms, p95 ${quantile(taps, 0.95).toFixed(1)} ms; ` +
          `tap / agent send p50 = ${ratio}`,
      );
      return {
        ratios: {
          tap_p50_ms: round(quantile(taps, 0.5)),
          tap_p95_ms: round(quantile(taps, 0.95)),
          tap_vs_send_p50: ratio,
        },
        raw: {
          taps_per_round: TAPS,
          send_p50_ms: round(
            quantile(
              rounds.flatMap((r) => r.send),
              0.5,
            ),
          ),
          round_ratios: rounds.map((r) => round(quantile(r.tap, 0.5) / quantile(r.send, 0.5))),
        },
      };
    } finally {
      await worker.stop();
      await graph.close();
    }
  });
}
