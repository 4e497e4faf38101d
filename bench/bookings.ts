// Bookings: slot search for a 31-day range over 20 resources with 5,000 bookings (p95, and its ratio
// to a plain indexed read of one booking measured in the same rounds), the widest search there is
// (100 resources open 24 h on a 5-minute grid over 31 days, serialized as GET /slots answers it, cut
// at 1 MiB), and booking throughput under
// contention (many clients racing for few slots: bookings/s, attempts/s and the share of 409s, with
// the database checked afterwards for any overlap). Both again through the booking page's public
// routes, the whole pipeline in-process (`handleApi`, no HTTP: the per-address limits, the lookup
// of the public service, the answer's schema), each request from its own client address as
// visitors' are.
import pg from 'pg';
import { percentile, withBenchDatabase } from './_database';
import { type BenchResult, median, round } from './_results';

const RESOURCES = 20;
const BOOKINGS = 5_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RUNS = Number(process.env.BENCH_SLOT_RUNS ?? 60);
const CLIENTS = 16;
const ATTEMPTS_PER_CLIENT = 60;
const WIDE_RESOURCES = 100;
const WIDE_RUNS = Number(process.env.BENCH_WIDE_SLOT_RUNS ?? 5);

export function run(): Promise<BenchResult> {
  return withBenchDatabase('bookings', measure);
}

async function measure(url: string): Promise<BenchResult> {
  const { createTenantWithAdmin } = await import('@/server/domain/tenants');
  const { operationContext, SYSTEM_ACTOR } = await import('@/server/domain/context');
  const { createResource } = await import('@/server/domain/resources/manage-resources');
  const { CreateResourceInput } = await import('@/server/domain/resources/schemas');
  const { createService } = await import('@/server/domain/services/manage-services');
  const { CreateServiceInput } = await import('@/server/domain/services/schemas');
  const { findServiceSlots } = await import('@/server/domain/availability/find-slots');
  const { getBooking } = await import('@/server/domain/bookings/get-booking');
  const { createBooking } = await import('@/server/domain/bookings/create-booking');
  const { CreateBookingInput } = await import('@/server/domain/bookings/schemas');
  const { AppError } = await import('@/server/lib/errors');
  const { handleApi } = await import('@/server/api/routes');
  let visitor = 0;
  /** A request of a visitor, each from an address of its own (the per-address limits stay on). */
  const asVisitor = (path: string, init: RequestInit = {}) => {
    visitor++;
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`);
    return handleApi(new Request(`http://bench.local/api/v1/public${path}`, { ...init, headers }));
  };

  const { tenantId } = await createTenantWithAdmin({
    name: 'Bench clinic',
    adminEmail: 'bench@bookings.test',
    adminPassword: 'bench password long enough',
  });
  const ctx = operationContext(tenantId, SYSTEM_ACTOR);
  const hours = [
    { start: '08:00', end: '13:00' },
    { start: '14:00', end: '20:00' },
  ];
  const week = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, hours]));
  const resources = [];
  for (let i = 0; i < RESOURCES; i++) {
    resources.push(
      await createResource(
        ctx,
        CreateResourceInput.parse({
          name: `Resource ${i}`,
          time_zone: i % 2 ? 'Europe/Madrid' : 'America/New_York',
          weekly_hours: week,
        }),
      ),
    );
  }
  const service = await createService(
    ctx,
    CreateServiceInput.parse({
      name: 'Bench service',
      duration_minutes: 30,
      resource_ids: resources.map((r) => r.id),
      buffer_before_minutes: 5,
      buffer_after_minutes: 5,
      slot_interval_minutes: 15,
      booking_window_days: 730,
      public: true,
    }),
  );
  // 5,000 bookings spread over the 31 days (250 per resource), written in SQL.
  const first = new Date(Date.now() + 7 * 86_400_000);
  first.setUTCHours(0, 0, 0, 0);
  const startDate = first.toISOString().slice(0, 10);
  const endDate = new Date(first.getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `insert into bookings (id, tenant_id, status, customer_name, service, service_id, resource_id,
       start_at, end_at, blocked_from, blocked_until, updated_at)
     select 'bkg_' || lpad(n::text, 26, '0'), $1::uuid, case when n % 3 = 0 then 'pending' else 'confirmed' end::"BookingStatus",
       'Customer ' || n, 'Bench service', $2, (array[${resources.map((r) => `'${r.id}'`).join(',')}])[1 + n % ${RESOURCES}],
       s, s + interval '30 minutes', s - interval '5 minutes', s + interval '35 minutes', now()
     from generate_series(0, $3 - 1) n,
       lateral (select $4::timestamptz + ((n / ${RESOURCES}) % 31) * interval '1 day'
         + (10 + (n / ${RESOURCES * 31}) * 1) * interval '1 hour' + (n % 3) * interval '10 minutes' as s) t`,
    [tenantId, service.id, BOOKINGS, first.toISOString()],
  );
  await client.query('vacuum analyze');
  const bookingId = `bkg_${'0'.repeat(25)}7`;

  const search = () =>
    findServiceSlots(ctx, {
      service_id: service.id,
      start: startDate,
      end: endDate,
      time_zone: 'Europe/Madrid',
    });
  const read = () => getBooking(ctx, { id: bookingId });
  const publicSearch = async () => {
    const response = await asVisitor(
      `/services/${service.id}/slots?start=${startDate}&end=${endDate}&time_zone=Europe/Madrid`,
    );
    if (response.status !== 200)
      throw new Error(`public slots answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  const sample = await search();
  const slotCount = Object.values(sample.days).reduce((n, list) => n + list.length, 0);
  for (let i = 0; i < 5; i++) {
    await search();
    await publicSearch();
    await read();
  }
  const timed = async (call: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await call();
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b);
  };
  const rounds: { search: number; publicSearch: number; read: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const s = percentile(await timed(search), 95);
    const p = percentile(await timed(publicSearch), 95);
    const b = percentile(await timed(read), 95);
    rounds.push({ search: s, publicSearch: p, read: b });
    console.log(
      `round ${r + 1}: slot search p95 ${s.toFixed(1)} ms, public slots p95 ${p.toFixed(1)} ms, indexed read p95 ${b.toFixed(2)} ms`,
    );
  }
  const searchP95 = median(rounds.map((x) => x.search));
  const publicP95 = median(rounds.map((x) => x.publicSearch));
  console.log(
    `public slots (GET /public/services/{id}/slots, whole pipeline), 31 days: p95 ${publicP95.toFixed(1)} ms ` +
      `(${median(rounds.map((x) => x.publicSearch / x.search)).toFixed(2)} × the slot search alone)`,
  );
  const ratio = median(rounds.map((x) => x.search / x.read));
  console.log(
    `slot search, 31 days × ${RESOURCES} resources, ${BOOKINGS} bookings (${slotCount} free slots): p95 ${searchP95.toFixed(1)} ms ` +
      `(${ratio.toFixed(1)} × an indexed read)`,
  );

  // The widest search: 100 resources open 24 h, a 5-minute grid, 31 days (8,928 starts × 100 ids
  // uncut), timed with its serialization, as GET /slots answers it.
  const allDay = Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
  );
  const wideIds: string[] = [];
  for (let i = 0; i < WIDE_RESOURCES; i++) {
    const r = await createResource(
      ctx,
      CreateResourceInput.parse({ name: `Chair ${i}`, time_zone: 'UTC', weekly_hours: allDay }),
    );
    wideIds.push(r.id);
  }
  const wide = await createService(
    ctx,
    CreateServiceInput.parse({
      name: 'Wide service',
      duration_minutes: 5,
      slot_interval_minutes: 5,
      resource_ids: wideIds,
      booking_window_days: 730,
    }),
  );
  const wideSearch = async () =>
    JSON.stringify(
      await findServiceSlots(ctx, { service_id: wide.id, start: startDate, end: endDate, time_zone: 'UTC' }),
    );
  const wideSample = await wideSearch();
  const wideRounds: { search: number; read: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const times: number[] = [];
    const reads: number[] = [];
    for (let i = 0; i < WIDE_RUNS; i++) {
      let t0 = performance.now();
      await wideSearch();
      times.push(performance.now() - t0);
      t0 = performance.now();
      await read();
      reads.push(performance.now() - t0);
    }
    wideRounds.push({ search: median(times), read: median(reads) });
  }
  const wideMs = median(wideRounds.map((x) => x.search));
  const wideRatio = median(wideRounds.map((x) => x.search / x.read));
  const wideBytes = Buffer.byteLength(wideSample);
  console.log(
    `widest slot search, 31 days × ${WIDE_RESOURCES} resources × 24 h on a 5-minute grid: median ${wideMs.toFixed(0)} ms ` +
      `(${wideRatio.toFixed(0)} × an indexed read), ${wideBytes} bytes, truncated ${JSON.parse(wideSample).truncated}`,
  );

  // Contention: CLIENTS concurrent clients, each ATTEMPTS_PER_CLIENT bookings at random starts among
  // few slots (2 resources × 8 hourly starts × 5 days = 80 places for 960 attempts).
  const contested = await createService(
    ctx,
    CreateServiceInput.parse({
      name: 'Contested',
      duration_minutes: 60,
      resource_ids: [resources[0].id, resources[2].id],
      booking_window_days: 730,
    }),
  );
  const day0 = new Date(Date.now() + 60 * 86_400_000);
  day0.setUTCHours(0, 0, 0, 0);
  let created = 0;
  let refused = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; i < ATTEMPTS_PER_CLIENT; i++) {
        const k = (c * 7919 + i * 104_729) % 40;
        // New York hours 08:00–13:00 local are 13:00–18:00Z in winter, 12:00–17:00Z in summer: 13:00–17:00Z is inside.
        const start = new Date(
          day0.getTime() + Math.floor(k / 8) * 86_400_000 + (13 * 60 + (k % 8) * 30) * 60_000,
        );
        try {
          await createBooking(
            ctx,
            CreateBookingInput.parse({
              service_id: contested.id,
              start_at: start.toISOString(),
              customer: { name: `C${c}` },
            }),
          );
          created++;
        } catch (error) {
          if (error instanceof AppError && error.code === 'slot_unavailable') refused++;
          else {
            errors++;
            if (errors < 3) console.error(error);
          }
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const attempts = CLIENTS * ATTEMPTS_PER_CLIENT;
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from bookings a join bookings b on a.resource_id = b.resource_id and a.id < b.id
     where a.service_id = $1 and b.service_id = $1 and a.status in ('pending','confirmed') and b.status in ('pending','confirmed')
       and tstzrange(a.blocked_from, a.blocked_until, '[)') && tstzrange(b.blocked_from, b.blocked_until, '[)')`,
    [contested.id],
  );
  // The same race through the booking page: a public free service on two other resources, each
  // attempt a visitor of its own (address and phone), POST /public/services/{id}/bookings.
  const contestedPublic = await createService(
    ctx,
    CreateServiceInput.parse({
      name: 'Contested on the page',
      duration_minutes: 60,
      resource_ids: [resources[4].id, resources[6].id],
      booking_window_days: 730,
      public: true,
    }),
  );
  const page = { created: 0, refused: 0, errors: 0, seconds: 0, overlaps: 0 };
  const pageStarted = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; i < ATTEMPTS_PER_CLIENT; i++) {
        const k = (c * 7919 + i * 104_729) % 40;
        const start = new Date(
          day0.getTime() + Math.floor(k / 8) * 86_400_000 + (13 * 60 + (k % 8) * 30) * 60_000,
        );
        const response = await asVisitor(`/services/${contestedPublic.id}/bookings`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `bench-${c}-${i}` },
          body: JSON.stringify({
            start_at: start.toISOString(),
            customer: { name: `V${c}`, phone: `+3460${String(c * 1000 + i).padStart(7, '0')}` },
          }),
        });
        const text = await response.text();
        if (response.status === 201) page.created++;
        else if (response.status === 409 && text.includes('slot_unavailable')) page.refused++;
        else {
          page.errors++;
          if (page.errors < 3) console.error(response.status, text.slice(0, 300));
        }
      }
    }),
  );
  page.seconds = (performance.now() - pageStarted) / 1000;
  page.overlaps = (
    await client.query<{ n: number }>(
      `select count(*)::int as n from bookings a join bookings b on a.resource_id = b.resource_id and a.id < b.id
       where a.service_id = $1 and b.service_id = $1 and a.status in ('pending','confirmed') and b.status in ('pending','confirmed')
         and tstzrange(a.blocked_from, a.blocked_until, '[)') && tstzrange(b.blocked_from, b.blocked_until, '[)')`,
      [contestedPublic.id],
    )
  ).rows[0].n;
  console.log(
    `booking page contention: ${CLIENTS} clients, ${attempts} attempts in ${page.seconds.toFixed(1)} s: ` +
      `${page.created} booked (${(page.created / page.seconds).toFixed(1)} bookings/s), ${page.refused} × 409, ` +
      `${page.errors} other answers, ${page.overlaps} overlaps`,
  );
  await client.end();
  console.log(
    `contention: ${CLIENTS} clients, ${attempts} attempts in ${seconds.toFixed(1)} s: ${(attempts / seconds).toFixed(0)} attempts/s, ` +
      `${created} booked (${(created / seconds).toFixed(1)} bookings/s), ${refused} × 409 (${((refused / attempts) * 100).toFixed(1)} %), ` +
      `${errors} other errors, ${rows[0].n} overlaps`,
  );
  return {
    ratios: {
      slots_p95_ms_31d: round(searchP95, 1),
      slots_vs_read: round(ratio, 2),
      slots_wide_ms_31d: round(wideMs, 0),
      slots_wide_vs_read: round(wideRatio, 0),
      booking_contention_per_s: round(created / seconds, 1),
      booking_contention_409_share: round(refused / attempts, 3),
      public_slots_p95_ms_31d: round(publicP95, 1),
      public_booking_contention_per_s: round(page.created / page.seconds, 1),
    },
    raw: {
      slots: {
        rounds,
        free_slots: slotCount,
        resources: RESOURCES,
        bookings: BOOKINGS,
        runs_per_round: RUNS,
      },
      slots_wide: {
        rounds: wideRounds,
        resources: WIDE_RESOURCES,
        answer_bytes: wideBytes,
        runs_per_round: WIDE_RUNS,
      },
      contention: {
        clients: CLIENTS,
        attempts,
        created,
        refused,
        errors,
        seconds: round(seconds, 2),
        overlaps: rows[0].n,
        attempts_per_s: round(attempts / seconds, 1),
      },
      booking_page_contention: { ...page, seconds: round(page.seconds, 2), attempts: attempts },
    },
  };
}
