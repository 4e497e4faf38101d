// What a key holds, and who may give it: a credential mints (or rotates) only keys whose permissions
// it holds itself, so `api_keys.write` is no way to more than one already has (docs/decisions.md
// "Restricted keys").
import { keyPermissions } from '@/server/auth/principal';
import { allows, inTableOrder, type Permission } from '@/server/client-safe/permissions';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';

/** How a key's permissions are stored: empty for a full key, else each once in the table's order. */
export function storedPermissions(requested: readonly Permission[] | undefined): Permission[] {
  return requested ? inTableOrder(requested) : [];
}

/** 403 forbidden, naming what is missing, unless the caller holds every permission of the key. */
export function assertMayGrant(ctx: OperationContext, stored: readonly string[]): void {
  const held = ctx.permissions;
  if (!held) return; // the system (operator CLI, seed) grants anything
  const missing = keyPermissions(stored).filter((p) => !allows(held, p));
  if (missing.length > 0)
    throw Errors.forbidden(
      `A key can hold only permissions its creator holds; this credential lacks ${missing.join(', ')}`,
    );
}
