// Picks the delivery engine named by the DELIVERY_ENGINE setting. The interface lives in
// server/delivery/engine-interface.ts, which the engines import, so no engine imports this module
// back. The types are re-exported here so the outbox (server/events/record.ts) needs one import.
import { settings } from '@/server/config/settings';
import type { DeliveryEngine } from '@/server/delivery/engine-interface';

export type { DeliveryEngine, DeliveryJob } from '@/server/delivery/engine-interface';

const engines: Partial<Record<DeliveryEngine['name'], DeliveryEngine>> = {};

export async function deliveryEngine(): Promise<DeliveryEngine> {
  const name = settings().DELIVERY_ENGINE;
  // Imported lazily so only the configured engine's module (and what it imports) is ever loaded.
  engines[name] ??=
    name === 'worker'
      ? (await import('./worker/engine')).workerEngine
      : (await import('./inngest/engine')).inngestEngine;
  return engines[name];
}
