// Transaction-level advisory locks: a key is held from `lockKey` until the unit of work that took it
// ends, so writers of one kind of thing for one subject run one after the other while everything else
// goes on. Keys name their subject (`booking:<tenant>:<resource>`); two keys may collide in the 64-bit
// hash, which only makes two unrelated writers wait for each other.
import { advisoryXactLock } from './sql/advisory-xact-lock';
import { type CrossTenantUnit, transaction, type UnitOfWork } from './unit-of-work';

export async function lockKey(tx: UnitOfWork | CrossTenantUnit, key: string): Promise<void> {
  await advisoryXactLock.execute(tx, key);
}

/**
 * A lock on one kind of the tenant's rows, for rules that count before they insert (at most N webhook
 * endpoints or API keys per tenant): concurrent creations of that kind for that tenant run one after
 * the other, so the count cannot be overtaken. Other tenants and other kinds are not held up.
 */
export function lockTenantRows(tx: UnitOfWork, kind: string): Promise<void> {
  return lockKey(tx, `${kind}:${tx.tenantId}`);
}

/**
 * Runs `work` while holding the advisory lock `key` in a unit of work of its own, so calls with the
 * same key run one at a time across every process, whatever `work` does: its own statements run in
 * transactions of their own beside the lock's, which only waits (a customer's two taps on one offer
 * at once: the second waits for the first's booking, then moves it).
 */
export function serialized<T>(tenantId: string, key: string, work: () => Promise<T>): Promise<T> {
  return transaction({ tenantId }, async (tx) => {
    await lockKey(tx, key);
    return work();
  });
}
