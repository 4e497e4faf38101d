import { z } from 'zod';
import { PAYMENT_PROVIDERS, PAYMENT_STATUSES } from '@/server/client-safe/statuses';
import { ListQuery, Timestamp } from '@/server/lib/schemas';

export const PaymentStatus = z.enum(PAYMENT_STATUSES);
export const PaymentProvider = z.enum(PAYMENT_PROVIDERS);

/** The payments.amount column is a PostgreSQL integer: a larger amount would fail the insert (a 500), not a 422. */
const maxAmount = 2_147_483_647;

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
  provider: PaymentProvider.meta({
    description:
      'manual: recorded and moved by hand (POST /payments, /succeed, /fail). stripe: taken through a Stripe ' +
      "Checkout Session; its state follows Stripe's webhooks and its refunds go through Stripe",
    example: 'manual',
  }),
  provider_ref: z
    .string()
    .nullable()
    .meta({ description: "Manual: the caller's reference. Stripe: the Checkout Session id (cs_…)" }),
  checkout_url: z.string().nullable().meta({
    description:
      "Stripe: the Checkout Session's payment page to send the customer to; null for manual payments",
    example: null,
  }),
  refunded_amount: z.number().int().meta({
    description:
      'Integer minor units refunded so far (partial refunds keep the payment succeeded; a full one makes it refunded)',
    example: 0,
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const providerRef = z.string().trim().min(1).max(200);

export const CreatePaymentInput = z.object({
  amount: z
    .number()
    .int()
    .positive()
    .max(maxAmount)
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
    .literal('manual', {
      error:
        'Only manual payments are recorded by hand; Stripe payments are created with their Checkout Session ' +
        'when a paid service is booked',
    })
    .default('manual')
    .meta({ description: 'manual (the default): a payment collected outside the service, recorded by hand' }),
  provider_ref: providerRef.optional().nullable().meta({ description: "The provider's id for this payment" }),
});

export const SucceedPaymentInput = z.object({
  provider_ref: providerRef.optional().meta({ description: "Sets or replaces the provider's reference" }),
});

export const RefundPaymentInput = z
  .object({
    amount: z
      .number()
      .int()
      .positive()
      .max(maxAmount)
      .optional()
      .meta({
        description:
          'Stripe payments: integer minor units to refund, at most what remains (default: all of it). Manual ' +
          'payments are refunded in full (an amount other than the whole is refused)',
        example: 1500,
      }),
  })
  .meta({ example: { amount: 1500 } });

export const PaymentListQuery = ListQuery.extend({
  status: PaymentStatus.optional(),
  booking_id: z.string().min(1).max(64).optional(),
});

export type CreatePaymentInput = z.output<typeof CreatePaymentInput>;
export type SucceedPaymentInput = z.output<typeof SucceedPaymentInput>;
export type RefundPaymentInput = z.output<typeof RefundPaymentInput>;
