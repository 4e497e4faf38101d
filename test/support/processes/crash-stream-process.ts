// The delivering process of test/webhooks/crash-recovery-under-a-stream.integration.test.ts: a delivery worker that, when
// CRASH_STREAM_TENANT is set, also makes booking changes through the domain (create, then confirm
// or cancel) until it is killed, so SIGKILLs land in the middle of outbox transactions as well as
// in the middle of attempts. Runs until killed.

import { cancelBooking } from '@/server/domain/bookings/cancel-booking';
import { confirmBooking } from '@/server/domain/bookings/confirm-booking';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { startDeliveryWorker } from '@/server/runtime/deliveries/worker';
import { seededRandom } from '../seeded-random';

await startDeliveryWorker({ pollIntervalMs: 50 });
process.stdout.write('ready\n');

const tenantId = process.env.CRASH_STREAM_TENANT;
if (tenantId) {
  const random = seededRandom(Number(process.env.CRASH_STREAM_SEED ?? 1));
  const ctx = operationContext(tenantId, SYSTEM_ACTOR);
  for (let n = 0; ; n++) {
    const booking = await createBooking(ctx, {
      customer: { name: `Child ${n}`, email: 'child@example.test', phone: '+441234567' },
      service: 'Check-up',
      start_at: '2026-12-01T09:00:00.000Z',
      end_at: '2026-12-01T09:30:00.000Z',
    });
    const roll = random();
    if (roll < 0.4) await confirmBooking(ctx, { id: booking.id });
    else if (roll < 0.6) await cancelBooking(ctx, { id: booking.id });
    await new Promise((resolve) => setTimeout(resolve, 20 + random() * 60));
  }
}
