// The client-safe constants (server/client-safe/) are what the dashboard bundles; the server's
// schemas are built from them. Each value set must equal its database enum, so neither the page nor
// the API can offer a value the database does not know, or miss one it does.
import { describe, expect, it } from 'vitest';
import { PERMISSIONS, permissionsOf } from '@/server/client-safe/permissions';
import {
  BOOKING_STATUSES,
  CONVERSATION_STATUSES,
  DELIVERY_STATUSES,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  ROLES,
} from '@/server/client-safe/statuses';
import * as Enums from '@/server/db/generated/enums';

describe('client-safe value sets match the database enums', () => {
  it.each([
    ['Role', ROLES, Enums.Role],
    ['BookingStatus', BOOKING_STATUSES, Enums.BookingStatus],
    ['PaymentStatus', PAYMENT_STATUSES, Enums.PaymentStatus],
    ['PaymentProvider', PAYMENT_PROVIDERS, Enums.PaymentProvider],
    ['ConversationStatus', CONVERSATION_STATUSES, Enums.ConversationStatus],
    ['DeliveryStatus', DELIVERY_STATUSES, Enums.DeliveryStatus],
  ])('%s', (_name, values, dbEnum) => {
    expect([...values].sort()).toEqual(Object.values(dbEnum).sort());
  });
});

describe('the permission table', () => {
  it('gives admins every permission and agents only those that name them', () => {
    expect(permissionsOf('admin')).toEqual(Object.keys(PERMISSIONS));
    expect(permissionsOf('agent')).toEqual(
      Object.entries(PERMISSIONS)
        .filter(([, roles]) => (roles as readonly string[]).includes('agent'))
        .map(([p]) => p),
    );
    expect(permissionsOf(null)).toEqual([]);
  });
});
