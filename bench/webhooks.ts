// Webhook delivery on the worker engine: commit→receipt latency (p50/p99) and sustained
// deliveries/s to 1, 10 and 100 loopback receivers, next to a baseline measured in the same run:
// a bare Node loop that signs (standardwebhooks) and POSTs the same payloads to the same
// receivers with the same concurrency and the same sender (kept-alive connections). Each phase's
// CPU time, of this process (the receivers included) and of PostgreSQL's processes, is measured
// too (./_cpu.ts): per delivery and per event it gives the rate the two cores allow at that cost,
// which separates time spent waiting from work done. Events are produced as the hot writes
// (receipts, new bookings) produce theirs, in a unit of work of typed statements (a pg transaction,
// server/db/unit-of-work.ts), by eight concurrent producers; the same through Prisma's interactive
// transaction is printed beside.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { loadOtherTenants } from '@/scripts/lib/other-tenants';
import { type CpuSpent, cpuCeiling, measureCpu } from './_cpu';
import { percentile, withBenchDatabase } from './_database';
import { drainFloor, type FloorSchema, prepareBareQueue } from './_durable-floor';
import { type BenchResult, median, round } from './_results';

const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 200);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 4000);
const CONCURRENCY = 10; // the worker's default concurrency; the baseline uses the same
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RECEIVER_COUNTS = [1, 10, 100];
/** The scenario whose rounds also measure the durable floors (./_durable-floor.ts). */
const FLOOR_RECEIVERS = 10;
const PRODUCERS = 8;
const CORES = os.cpus().length;

interface Receivers {
  urls: string[];
  onReceipt: (fn: (id: string, at: number) => void) => void;
  close(): Promise<void>;
}

async function startReceivers(count: number): Promise<Receivers> {
  let listener: (id: string, at: number) => void = () => {};
  const servers: Server[] = [];
  for (let i = 0; i < count; i++) {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        listener(String(req.headers['webhook-id']), performance.now());
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
  }
  return {
    urls: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`),
    onReceipt: (fn) => {
      listener = fn;
    },
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      ).then(() => undefined),
  };
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

export function run(): Promise<BenchResult> {
  return withBenchDatabase('webhooks', (url) => measureAll(url));
}

async function measureAll(databaseUrl: string): Promise<BenchResult> {
  // One tenant's backlog against a bare loop of the same concurrency (10 requests at once on both
  // sides). The fairness caps count a claimed delivery as in flight until its attempt is recorded,
  // and the worker claims up to CLAIM_AHEAD_PER_SLOT × its concurrency ahead of its attempts so that
  // a slot never waits for a claim: the caps (8 per tenant, 5 per endpoint by default) are raised to
  // that depth here, so the ratio is the queue's bookkeeping. With the caps binding, one tenant's drain waits for a claim after each
  // attempt (a claim per slot cycle; on loopback receivers answering in about 3 ms that halves the
  // rate, against real receivers it is a few percent); bench/fairness.ts measures what the caps are
  // for. Its scenario of 100 receivers is one tenant's 100 endpoints: above the default limit of 50.
  const { startDeliveryWorker, CLAIM_AHEAD_PER_SLOT } = await import('@/server/runtime/deliveries/worker');
  Object.assign(process.env, {
    WEBHOOK_MAX_IN_FLIGHT_PER_TENANT: String(CONCURRENCY * CLAIM_AHEAD_PER_SLOT),
    WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: String(CONCURRENCY * CLAIM_AHEAD_PER_SLOT),
    MAX_WEBHOOK_ENDPOINTS_PER_TENANT: String(Math.max(...RECEIVER_COUNTS)),
  });
  (await import('@/server/config/settings')).resetSettingsCache();
  const { createTenantWithAdmin } = await import('@/server/domain/tenants');
  const { forTenant } = await import('@/server/db/tenant-scope');
  const { recordEvent } = await import('@/server/webhooks/outbox');
  const { exampleObject } = await import('@/server/events/payloads');
  const { createEndpoint } = await import('@/server/webhooks');
  const { signAttempt } = await import('@/server/webhooks/attempt/sign');
  const { sendWebhook } = await import('@/server/webhooks/attempt/send');
  const { envelopeBody } = await import('@/server/events/envelope');
  const { operationContext, SYSTEM_ACTOR } = await import('@/server/domain/context');
  const { transaction } = await import('@/server/db/unit-of-work');
  const { newId } = await import('@/server/lib/ids');
  const floorPool = new pg.Pool({ connectionString: databaseUrl, max: 2 });

  const worker = await startDeliveryWorker();
  const newTenant = (name: string) =>
    createTenantWithAdmin({
      name,
      adminEmail: `${name}-${randomBytes(3).toString('hex')}@bench.test`,
      adminPassword: 'bench password 1',
    });

  async function setUpScenario(name: string, receiverCount: number) {
    const receivers = await startReceivers(receiverCount);
    const { tenantId } = await newTenant(name);
    const db = forTenant(tenantId);
    for (const url of receivers.urls)
      await createEndpoint(operationContext(tenantId, SYSTEM_ACTOR), { url, events: ['booking.*'] });
    const event = (i: number) => ({
      tenantId,
      type: 'booking.confirmed' as const,
      object: { ...exampleObject('booking.confirmed'), id: `bkg_${i}` },
    });
    // An event written as the hot writes write theirs (a SQL transaction), and through Prisma's
    // interactive transaction as every other operation does.
    const ctx = operationContext(tenantId, SYSTEM_ACTOR);
    const emit = (i: number) => transaction(ctx, (tx) => recordEvent(tx, event(i)));
    const emitThroughPrisma = (i: number) =>
      transaction(ctx, async (tx) => {
        await tx.orm(); // Prisma's interactive transaction, begun before the outbox's statement
        return recordEvent(tx, event(i));
      });
    return { receivers, emit, emitThroughPrisma, db, tenantId };
  }

  // 1. Latency: one event at a time, from the commit returning to the receiver having the request.
  let latency: { p50: number; p99: number; max: number };
  {
    const { receivers, emit } = await setUpScenario('latency', 1);
    for (let i = 0; i < 20; i++) {
      const arrived = new Promise<void>((resolve) => receivers.onReceipt(() => resolve()));
      await emit(i);
      await arrived;
    }
    const samples: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      let committedAt = 0;
      const arrived = new Promise<number>((resolve) => receivers.onReceipt((_, at) => resolve(at)));
      await emit(i);
      committedAt = performance.now();
      samples.push((await arrived) - committedAt);
    }
    samples.sort((a, b) => a - b);
    latency = {
      p50: round(percentile(samples, 50), 2),
      p99: round(percentile(samples, 99), 2),
      max: round(samples[samples.length - 1], 2),
    };
    console.log(
      `commit→receipt latency, worker engine, ${LATENCY_SAMPLES} sequential events: ` +
        `p50 ${fmt(percentile(samples, 50))} ms, p99 ${fmt(percentile(samples, 99))} ms, ` +
        `max ${fmt(samples[samples.length - 1])} ms (goal: p50 < 15 ms, p99 < 100 ms)`,
    );
    await receivers.close();
  }

  // 2. Throughput to 1, 10, 100 receivers; each event fans out to every receiver's endpoint.
  //    drain: events committed while the worker is stopped, then the worker delivers them all
  //    (the delivery stage alone, comparable to the baseline loop), alternating with the baseline
  //    over the same deliveries for ROUNDS rounds, medians reported (loopback figures on a small
  //    machine swing by tens of percent from run to run); end-to-end: producers commit events
  //    while the worker delivers (commit of the first event to the last receipt).
  await worker.stop();

  // The same events through Prisma's interactive transaction (8 producers, 1 endpoint), against the
  // hot writes' SQL transaction that the throughput rounds below produce with; the deliveries are
  // removed after, so that no drain below sends them.
  let prismaEventsPerS: number;
  {
    const { receivers, emitThroughPrisma, db, tenantId } = await setUpScenario('events-prisma', 1);
    const rates: number[] = [];
    let next = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const end = next + DELIVERIES;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: PRODUCERS }, async () => {
          while (next < end) await emitThroughPrisma(next++);
        }),
      );
      rates.push(DELIVERIES / ((performance.now() - started) / 1000));
    }
    await db.delivery.deleteMany({ where: { tenantId } });
    await receivers.close();
    prismaEventsPerS = median(rates);
    console.log(
      `events committed/s through Prisma's interactive transaction, ${PRODUCERS} producers: ` +
        `${fmt(prismaEventsPerS, 0)} (rounds: ${rates.map((r) => fmt(r, 0)).join(', ')})`,
    );
  }

  console.log(
    `\nsustained deliveries/s (${DELIVERIES} deliveries per round, medians of ${ROUNDS} rounds, ` +
      `worker concurrency ${CONCURRENCY}, baseline concurrency ${CONCURRENCY}):`,
  );
  console.log(
    'receivers | worker drain | worker end-to-end | baseline (sign + POST loop) | ' +
      'drain/baseline | e2e/baseline',
  );
  console.log('(drain and baseline: medians of the rounds; drain/baseline: median of the per-round ratios)');
  const secret = `whsec_${randomBytes(32).toString('base64')}`;

  /** Drain/baseline rounds to `count` receivers on a fresh tenant; optionally the end-to-end run after. */
  async function throughput(name: string, count: number, phases: { endToEnd: boolean; floors: boolean }) {
    const { receivers, emit, db, tenantId } = await setUpScenario(name, count);
    const events = Math.ceil(DELIVERIES / count);
    const total = events * count;
    let received = 0;
    let target = 0;
    let done: () => void = () => {};
    receivers.onReceipt(() => {
      received++;
      if (received === target) done();
    });
    const allReceived = (count: number) => {
      target = received + count;
      return new Promise<void>((resolve) => {
        done = resolve;
      });
    };
    let nextEvent = 0;
    /** Eight concurrent producers commit `events` events; resolves to committed events per second. */
    const produce = async (measured = true) => {
      const end = nextEvent + events;
      const cpu = await measureCpu(databaseUrl);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: PRODUCERS }, async () => {
          while (nextEvent < end) await emit(nextEvent++);
        }),
      );
      const rate = events / ((performance.now() - started) / 1000);
      const spent = await cpu.stop();
      if (measured) producedCpu.push(spent);
      return rate;
    };
    const producedCpu: CpuSpent[] = [];

    const deliveryRows = (where: { status?: 'pending' } = {}) =>
      db.delivery.findMany({
        where,
        include: { event: true, endpoint: true },
        orderBy: { id: 'desc' },
        take: total,
      });
    type DeliveryRow = Awaited<ReturnType<typeof deliveryRows>>[number];
    /** The bare loop's send: the stored envelope, signed, POSTed by the worker's sender. */
    const signAndSend = async (row: DeliveryRow) => {
      const signed = signAttempt({
        eventId: row.event.id,
        eventType: row.event.type,
        body: envelopeBody(row.event.payload),
        secrets: [secret],
        attempt: 1,
      });
      const outcome = await sendWebhook(row.endpoint.url, signed, { timeoutMs: 10_000, allowPrivate: true });
      if (!outcome.ok) throw new Error(`bare POST failed: ${outcome.error}`);
      return outcome;
    };

    // Baseline: the same signed payloads (the stored envelopes) to the same receivers.
    const baseline = async () => {
      const rows = await deliveryRows();
      let index = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (index < rows.length) await signAndSend(rows[index++]);
        }),
      );
      return rows.length / ((performance.now() - started) / 1000);
    };

    // The durable floors (./_durable-floor.ts): new events, then the bare loop's sends with only a
    // claim and a record around them, on the product's tables or on a bare queue.
    const floor = async (schema: FloorSchema) => {
      await produce(false);
      const rows = await deliveryRows({ status: 'pending' });
      if (rows.length !== total)
        throw new Error(`the floor expected ${total} pending deliveries, found ${rows.length}`);
      if (schema === 'bare') await prepareBareQueue(floorPool, tenantId);
      const arrived = allReceived(total);
      const cpu = await measureCpu(databaseUrl);
      const started = performance.now();
      await drainFloor(
        floorPool,
        schema,
        rows.map((row) => ({
          id: row.id,
          tenantId,
          endpointId: row.endpointId,
          send: () => signAndSend(row),
        })),
        () => newId('deliveryAttempt'),
      );
      await arrived;
      const rate = total / ((performance.now() - started) / 1000);
      return { rate, cpu: await cpu.stop() };
    };

    const drains: number[] = [];
    const baselines: number[] = [];
    const ratios: number[] = [];
    const produced: number[] = [];
    const drainCpus: CpuSpent[] = [];
    const bareCpus: CpuSpent[] = [];
    type FloorRound = { rate: number; ratio: number; drainVsFloor: number; cpu: CpuSpent };
    const floors: Record<FloorSchema, FloorRound[]> = { product: [], bare: [] };
    for (let i = 0; i < ROUNDS; i++) {
      produced.push(await produce());
      const arrived = allReceived(total);
      const drainCpu = await measureCpu(databaseUrl);
      const started = performance.now();
      const running = await startDeliveryWorker({ concurrency: CONCURRENCY });
      await arrived;
      drains.push(total / ((performance.now() - started) / 1000));
      drainCpus.push(await drainCpu.stop()); // before the worker's connections close
      await running.stop();
      const baselineArrived = allReceived(total);
      const bareCpu = await measureCpu(databaseUrl);
      baselines.push(await baseline());
      await baselineArrived;
      bareCpus.push(await bareCpu.stop());
      ratios.push(drains[i] / baselines[i]);
      if (phases.floors) {
        for (const schema of ['product', 'bare'] as const) {
          const { rate, cpu } = await floor(schema);
          floors[schema].push({ rate, ratio: rate / baselines[i], drainVsFloor: drains[i] / rate, cpu });
        }
      }
    }

    let e2eRate = Number.NaN;
    if (phases.endToEnd) {
      const running = await startDeliveryWorker({ concurrency: CONCURRENCY });
      const arrived = allReceived(total);
      const started = performance.now();
      await produce();
      await arrived;
      e2eRate = total / ((performance.now() - started) / 1000);
      await running.stop();
    }

    const baselineRate = median(baselines);
    console.log(
      [
        String(count).padStart(9),
        fmt(median(drains), 0).padStart(12),
        fmt(e2eRate, 0).padStart(17),
        fmt(baselineRate, 0).padStart(27),
        fmt(median(ratios), 2).padStart(14),
        fmt(e2eRate / baselineRate, 2).padStart(12),
      ].join(' | '),
      `  (drain/baseline per round: ${ratios.map((r) => fmt(r, 2)).join(', ')}; ` +
        `events committed/s per round: ${produced.map((r) => fmt(r, 0)).join(', ')})`,
    );
    // CPU per delivery (and per event), medians over the rounds, and the rate it allows.
    const roundsProduced = producedCpu.slice(0, ROUNDS); // not the end-to-end run's
    const per = (spent: CpuSpent[], items: number, key: 'processMs' | 'databaseMs') =>
      median(spent.map((c) => c[key] / items));
    const cpu = {
      drain_process_ms: round(per(drainCpus, total, 'processMs'), 3),
      drain_database_ms: round(per(drainCpus, total, 'databaseMs'), 3),
      bare_process_ms: round(per(bareCpus, total, 'processMs'), 3),
      bare_database_ms: round(per(bareCpus, total, 'databaseMs'), 3),
      event_process_ms: round(per(roundsProduced, events, 'processMs'), 3),
      event_database_ms: round(per(roundsProduced, events, 'databaseMs'), 3),
    };
    const drainCeiling = median(drainCpus.map((c) => cpuCeiling(c, total, CORES)));
    const eventCeiling = median(roundsProduced.map((c) => cpuCeiling(c, events, CORES)));
    console.log(
      `${' '.repeat(12)}CPU per delivery: drain ${fmt(cpu.drain_process_ms, 3)} ms here + ` +
        `${fmt(cpu.drain_database_ms, 3)} ms PostgreSQL (the cores allow ${fmt(drainCeiling, 0)}/s at that cost, ` +
        `${fmt(drainCeiling / baselineRate, 2)} of the baseline); baseline ${fmt(cpu.bare_process_ms, 3)} ms; ` +
        `per event committed ${fmt(cpu.event_process_ms, 3)} + ${fmt(cpu.event_database_ms, 3)} ms ` +
        `(allows ${fmt(eventCeiling, 0)}/s)`,
    );
    // The floors: each one's rate against the same round's baseline, and the worker's drain against it.
    const floorFigures = phases.floors
      ? Object.fromEntries(
          (['product', 'bare'] as const).map((schema) => {
            const rounds = floors[schema];
            const cpus = rounds.map((r) => r.cpu);
            const figures = {
              per_s: round(median(rounds.map((r) => r.rate)), 0),
              vs_bare: round(median(rounds.map((r) => r.ratio))),
              drain_vs_floor: round(median(rounds.map((r) => r.drainVsFloor))),
              process_ms: round(per(cpus, total, 'processMs'), 3),
              database_ms: round(per(cpus, total, 'databaseMs'), 3),
            };
            console.log(
              `${' '.repeat(12)}durable floor on ${schema === 'product' ? "the product's tables" : 'a bare queue'}: ` +
                `${fmt(figures.per_s, 0)}/s, ${fmt(figures.vs_bare, 2)} of the baseline ` +
                `(per round: ${rounds.map((r) => fmt(r.ratio, 2)).join(', ')}); the worker's drain is ` +
                `${fmt(figures.drain_vs_floor, 2)} of it; CPU per delivery ${fmt(figures.process_ms, 3)} ms here + ` +
                `${fmt(figures.database_ms, 3)} ms PostgreSQL`,
            );
            return [schema, figures];
          }),
        )
      : null;
    await receivers.close();
    return {
      receivers: count,
      durable_floor: floorFigures,
      cpu_ms: cpu,
      drain_cpu_allows_per_s: round(drainCeiling, 0),
      drain_cpu_allows_vs_bare: round(drainCeiling / baselineRate),
      events_cpu_allows_per_s: round(eventCeiling, 0),
      drain_per_s: round(median(drains), 0),
      bare_per_s: round(baselineRate, 0),
      ratio: round(median(ratios)),
      round_ratios: ratios.map((r) => round(r)),
      events_committed_per_s: round(median(produced), 0),
      end_to_end_per_s: Number.isNaN(e2eRate) ? null : round(e2eRate, 0),
    };
  }

  const results: Awaited<ReturnType<typeof throughput>>[] = [];
  for (const count of RECEIVER_COUNTS)
    results.push(
      await throughput(`throughput-${count}`, count, { endToEnd: true, floors: count === FLOOR_RECEIVERS }),
    );

  // The same drain with 1,000,000 deliveries, 100,000 events and 10,000 endpoints of 1,000 other
  // tenants in the database (generated in SQL), against the 10-receiver figure above.
  console.log('\nloading 1,000 other tenants (1,000,000 deliveries, 10,000 endpoints) in SQL…');
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const loadStarted = performance.now();
  await loadOtherTenants(client, {
    tenants: 1000,
    endpointsPerTenant: 10,
    eventsPerTenant: 100,
    bookingsPerTenant: 0,
  });
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  await client.end();
  console.log(`loaded in ${fmt(loadSeconds)} s; draining to 10 receivers again:`);
  const big = await throughput('throughput-10-big', 10, { endToEnd: false, floors: false });
  const small = results[1];
  const scaleDrain = big.ratio / small.ratio;
  console.log(`scale_drain (drain/baseline with the rows / without): ${fmt(scaleDrain, 2)}`);
  // One endpoint per event: the rounds of the 1-receiver scenario (4,000 events each).
  const eventsPerS = results[0].events_committed_per_s;
  console.log(
    `events committed/s by ${PRODUCERS} concurrent producers (1 delivery each), as the hot writes ` +
      `write them (a SQL transaction): ${fmt(eventsPerS, 0)} ` +
      `(their CPU allows ${fmt(results[0].events_cpu_allows_per_s, 0)}/s; ` +
      `through Prisma's interactive transaction: ${fmt(prismaEventsPerS, 0)})`,
  );
  await floorPool.end();
  const floors = results[RECEIVER_COUNTS.indexOf(FLOOR_RECEIVERS)].durable_floor;
  if (!floors) throw new Error('the durable floors were not measured');
  console.log(
    `durable floors, ${FLOOR_RECEIVERS} receivers (the bare loop plus only a claim and a record per delivery): ` +
      `${fmt(floors.bare.vs_bare, 2)} of the bare loop on a bare queue, ${fmt(floors.product.vs_bare, 2)} on the ` +
      `product's tables; the worker's drain is ${fmt(floors.product.drain_vs_floor, 2)} of the latter`,
  );
  return {
    ratios: {
      events_per_s: round(eventsPerS, 0),
      drain_vs_bare_1: results[0].ratio,
      drain_vs_bare_10: results[1].ratio,
      drain_vs_bare_100: results[2].ratio,
      floor_bare_queue_vs_bare_10: floors.bare.vs_bare,
      floor_product_vs_bare_10: floors.product.vs_bare,
      drain_vs_floor_product_10: floors.product.drain_vs_floor,
      scale_drain: round(scaleDrain),
    },
    raw: {
      latency_ms: latency,
      events_through_prisma_per_s: round(prismaEventsPerS, 0),
      throughput: results,
      throughput_10_big_database: big,
      big_database_load_s: round(loadSeconds, 1),
      deliveries_per_round: DELIVERIES,
      rounds: ROUNDS,
      producers: PRODUCERS,
    },
  };
}
