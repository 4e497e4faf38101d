// The writes that commit events, at the rate eight concurrent producers reach, each next to a
// baseline measured in the same rounds (a transaction of one `select 1` on a pg pool of the same
// size, which only the machine's load moves): the outbox write alone as the hot writes make it, a
// WhatsApp status receipt (`applyReceipt`), a free-form booking and a booking of a service
// (`createBooking`). Baseline and subjects alternate for ROUNDS rounds; each ratio is the median of
// the per-round ratios. `npm run bench -- events`.
import pg from 'pg';
import { withBenchDatabase } from './_database';
import { type BenchResult, median, round } from './_results';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OPERATIONS = Number(process.env.BENCH_OPERATIONS ?? 2000);
const PRODUCERS = 8;
const RESOURCES = 20;
/** 30-minute starts from 00:00 that end by 23:59, the resources' working day. */
const SLOTS_PER_DAY = 47;

export function run(): Promise<BenchResult> {
  return withBenchDatabase('events', measure);
}

async function measure(url: string): Promise<BenchResult> {
  const { createTenantWithAdmin } = await import('@/server/domain/tenants');
  const { operationContext, SYSTEM_ACTOR } = await import('@/server/domain/context');
  const { createEndpoint } = await import('@/server/webhooks');
  const { recordEvent } = await import('@/server/webhooks/outbox');
  const { exampleObject } = await import('@/server/events/payloads');
  const { applyReceipt } = await import('@/server/domain/conversations/apply-receipt');
  const { createBooking } = await import('@/server/domain/bookings/create-booking');
  const { CreateBookingInput } = await import('@/server/domain/bookings/schemas');
  const { createResource } = await import('@/server/domain/resources/manage-resources');
  const { CreateResourceInput } = await import('@/server/domain/resources/schemas');
  const { createService } = await import('@/server/domain/services/manage-services');
  const { CreateServiceInput } = await import('@/server/domain/services/schemas');
  const { poolSize } = await import('@/server/db/client');
  const { transaction } = await import('@/server/db/unit-of-work');

  const { tenantId } = await createTenantWithAdmin({
    name: 'Bench events',
    adminEmail: 'bench@events.test',
    adminPassword: 'bench password long enough',
  });
  const ctx = operationContext(tenantId, SYSTEM_ACTOR);
  // One subscribed endpoint (never delivered to: no engine runs), so each event writes one delivery.
  await createEndpoint(ctx, { url: 'http://127.0.0.1:9/hook', events: ['*'] });

  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // the database stops after the bench, or after a failure (thrown below)
  await client.connect();
  // Outbound messages waiting for their receipt: one per receipt of every round.
  await client.query(
    `with channel as (
       insert into channels (id, tenant_id, type) values ('chn_bench', $1::uuid, 'whatsapp') returning id
     ), conversation as (
       insert into conversations (id, tenant_id, channel, channel_id, contact_phone)
       select 'cnv_bench', $1::uuid, 'whatsapp', id, '+34600000000' from channel returning id
     )
     insert into messages (id, tenant_id, conversation_id, direction, text, status, external_id)
     select 'msg_' || lpad(n::text, 26, '0'), $1::uuid, conversation.id, 'outbound', 'Hello', 'queued', 'wamid.' || n
     from conversation, generate_series(0, $2 - 1) n`,
    [tenantId, OPERATIONS * ROUNDS],
  );
  const day = { start: '00:00', end: '23:59' };
  const week = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [day]]));
  const resources: { id: string }[] = [];
  for (let i = 0; i < RESOURCES; i++) {
    resources.push(
      await createResource(
        ctx,
        CreateResourceInput.parse({ name: `Resource ${i}`, time_zone: 'UTC', weekly_hours: week }),
      ),
    );
  }
  const service = await createService(
    ctx,
    CreateServiceInput.parse({
      name: 'Bench service',
      duration_minutes: 30,
      resource_ids: resources.map((r) => r.id),
      slot_interval_minutes: 30,
      booking_window_days: 730,
    }),
  );
  await client.query('vacuum analyze');
  const baselinePool = new pg.Pool({ connectionString: url, max: poolSize() });
  baselinePool.on('error', () => {});

  const first = new Date(Date.now() + 2 * 86_400_000);
  first.setUTCHours(0, 0, 0, 0);
  let message = 0;
  let freeForm = 0;
  let placed = 0;
  const subjects = {
    baseline: async () => {
      const connection = await baselinePool.connect();
      try {
        await connection.query('begin');
        await connection.query('select 1');
        await connection.query('commit');
      } finally {
        connection.release();
      }
    },
    event: (i: number) =>
      transaction(ctx, (tx) =>
        recordEvent(tx, {
          tenantId,
          type: 'booking.confirmed',
          object: { ...exampleObject('booking.confirmed'), id: `bkg_${i}` },
        }),
      ),
    receipt: async () => {
      const { changed } = await applyReceipt(ctx, { externalId: `wamid.${message++}`, status: 'delivered' });
      if (!changed) throw new Error('a receipt changed nothing');
    },
    free_form_booking: () => {
      const start = new Date(first.getTime() + freeForm++ * 60_000);
      return createBooking(
        ctx,
        CreateBookingInput.parse({
          start_at: start.toISOString(),
          end_at: new Date(start.getTime() + 30 * 60_000).toISOString(),
          customer: { name: 'Bench customer', phone: '+34600000001' },
          hold_expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      );
    },
    // Each booking on its own place (resource × 30-minute start inside the working day), so none is
    // refused.
    service_booking: () => {
      const place = Math.floor(placed / RESOURCES);
      const n = placed++;
      const start = new Date(
        first.getTime() +
          Math.floor(place / SLOTS_PER_DAY) * 86_400_000 +
          (place % SLOTS_PER_DAY) * 30 * 60_000,
      );
      return createBooking(
        ctx,
        CreateBookingInput.parse({
          service_id: service.id,
          resource_id: resources[n % RESOURCES].id,
          start_at: start.toISOString(),
          customer: { name: 'Bench customer' },
        }),
      );
    },
  };
  type Subject = keyof typeof subjects;
  /** Operations per second of `subject`, OPERATIONS of them by PRODUCERS concurrent producers. */
  const rate = async (subject: Subject) => {
    const call = subjects[subject];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: PRODUCERS }, async () => {
        while (next < OPERATIONS) await call(next++);
      }),
    );
    return OPERATIONS / ((performance.now() - started) / 1000);
  };
  await rate('baseline'); // warm-up of the pool and the server
  const names = Object.keys(subjects).filter((s) => s !== 'baseline') as Subject[];
  const rates: Record<Subject, number[]> = Object.fromEntries(
    Object.keys(subjects).map((s) => [s, []]),
  ) as unknown as Record<Subject, number[]>;
  const ratios: Record<string, number[]> = Object.fromEntries(names.map((s) => [s, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const line: string[] = [];
    for (const name of names) {
      const baseline = await rate('baseline');
      const subject = await rate(name);
      rates.baseline.push(baseline);
      rates[name].push(subject);
      ratios[name].push(subject / baseline);
      line.push(`${name} ${subject.toFixed(0)}/s (${(subject / baseline).toFixed(3)})`);
    }
    console.log(`round ${r + 1}: ${line.join(', ')}`);
  }
  await baselinePool.end();
  await client.end();
  const figures = Object.fromEntries(
    names.map((name) => [
      name,
      {
        per_s: round(median(rates[name]), 0),
        vs_baseline: round(median(ratios[name])),
        round_ratios: ratios[name].map((x) => round(x)),
      },
    ]),
  );
  console.log(
    `${PRODUCERS} producers, ${OPERATIONS} operations per round, medians of ${ROUNDS} rounds; baseline ` +
      `(a pg transaction of one select) ${median(rates.baseline).toFixed(0)}/s:`,
  );
  for (const name of names)
    console.log(
      `  ${name.padEnd(18)} ${figures[name].per_s}/s, ${figures[name].vs_baseline} of the baseline ` +
        `(rounds: ${figures[name].round_ratios.join(', ')})`,
    );
  return {
    ratios: {},
    raw: { baseline_per_s: round(median(rates.baseline), 0), ...figures },
  };
}
