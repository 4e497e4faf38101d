// Transaction-level advisory locks: a key is held from `lockKey` until the unit of work that took it
// ends, so writers of one kind of thing for one subject run one after the other while everything else
// goes on. Keys name their subject (`booking:<tenant>:<resource>`); two keys may collide in the 64-bit
// hash, which only makes two unrelated writers wait for each other.
import { advisoryXactLock } from './sql/advisory-xact-lock';
import type { CrossTenantUnit, UnitOfWork } from './unit-of-work';

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
