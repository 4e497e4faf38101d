import { z } from 'zod';
import { PAYMENT_STATUSES } from '@/server/client-safe/statuses';
import { ListQuery, Timestamp } from '@/server/lib/schemas';

export const PaymentStatus = z.enum(PAYMENT_STATUSES);

/** ISO 4217 codes this runtime knows (Intl's list), so a typo like `EUD` is refused. */
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const Payment = z.object({
  id: z.string().meta({ example: 'pay_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  booking_id: z.string().nullable(),
  amount: z
    .number()
    .int()
    .meta({ description: 'Integer minor units (cents for EUR, yen for JPY)', example: 4500 }),
  currency: z.string().meta({ description: 'ISO 4217, upper case', example: 'EUR' }),
  status: PaymentStatus,
  provider: z.string().meta({ example: 'manual' }),
  provider_ref: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const providerRef = z.string().trim().min(1).max(200);

export const CreatePaymentInput = z.object({
  amount: z
    .number()
    .int()
    .positive()
    // The column is a PostgreSQL integer: a larger amount would fail the insert (a 500), not a 422.
    .max(2_147_483_647)
    .meta({ description: 'Integer minor units, greater than 0 and at most 2147483647' }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'Must be an ISO 4217 code in upper case, e.g. EUR')
    .refine((c) => CURRENCIES.has(c), 'Unknown ISO 4217 currency'),
  booking_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .nullable()
    .meta({ description: 'A booking of this tenant (422 otherwise)' }),
  provider: z
    .string()
    .trim()
    .regex(/^[a-z0-9_-]{1,40}$/, 'Lower-case letters, digits, - and _ (at most 40)')
    .default('manual')
    .meta({ description: 'Who collects the money (default manual)' }),
  provider_ref: providerRef.optional().nullable().meta({ description: "The provider's id for this payment" }),
});

export const SucceedPaymentInput = z.object({
  provider_ref: providerRef.optional().meta({ description: "Sets or replaces the provider's reference" }),
});

export const PaymentListQuery = ListQuery.extend({
  status: PaymentStatus.optional(),
  booking_id: z.string().min(1).max(64).optional(),
});

export type CreatePaymentInput = z.output<typeof CreatePaymentInput>;
export type SucceedPaymentInput = z.output<typeof SucceedPaymentInput>;
