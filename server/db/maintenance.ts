// The unscoped client, under a name that says why it is used. Tenant data is read and written
// through `forTenant()` (./tenant-scope.ts); only a pass that must see every tenant's rows at once
// may go around it: the delivery engines' queue and relay, event retention, and the credential
// lookups that find the tenant in the first place. Such a pass names itself at the call site and
// writes the tenant explicitly wherever it writes a row.
import { type Db, db } from './client';

/** The database client for cross-tenant maintenance passes (see above); everything else uses forTenant(). */
export function maintenanceDb(): Db {
  return db();
}
