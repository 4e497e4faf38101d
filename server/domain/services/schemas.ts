import { z } from 'zod';
import { Timestamp } from '@/server/lib/schemas';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const PaymentMode = z.enum(['none', 'deposit', 'full']);

const minutes = (min: number, max: number) => z.number().int().min(min).max(max);

export const Money = z.object({
  amount: z
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .meta({ description: 'Integer minor units (cents for EUR)', example: 4500 }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'Must be an ISO 4217 code in upper case, e.g. EUR')
    .refine((c) => CURRENCIES.has(c), 'Unknown ISO 4217 currency')
    .meta({ example: 'EUR' }),
});

export const Reminder = z.object({
  before_minutes: minutes(1, 43_200).meta({
    description: 'How long before start_at (1 minute … 30 days)',
    example: 1440,
  }),
  channel_id: z.string().min(1).max(64).meta({ description: 'A WhatsApp channel of this tenant' }),
  template: z.object({
    name: z
      .string()
      .min(1)
      .max(512)
      .regex(/^[a-z0-9_]+$/, 'Lower-case letters, digits and underscores, as Meta names templates')
      .meta({ example: 'appointment_reminder' }),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'A language code such as en or en_US')
      .meta({ example: 'en_US' }),
  }),
  ask: z
    .boolean()
    .default(false)
    .meta({
      description:
        'The template (approved at Meta with three quick-reply buttons, in this order: I will come, Change ' +
        'time, Cancel) asks the customer: a tap confirms attendance (booking.attendance_confirmed), offers ' +
        'new times for the booking on WhatsApp, or cancels it',
    }),
});

export const Service = z.object({
  id: z.string().meta({ example: 'svc_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  name: z.string(),
  duration_minutes: z.number().int(),
  resource_ids: z.array(z.string()),
  buffer_before_minutes: z.number().int(),
  buffer_after_minutes: z.number().int(),
  min_notice_minutes: z.number().int(),
  booking_window_days: z.number().int(),
  slot_interval_minutes: z
    .number()
    .int()
    .meta({ description: 'The slot grid step (the duration unless set)' }),
  price: z.object({ amount: z.number().int(), currency: z.string() }).nullable(),
  payment: PaymentMode,
  deposit_amount: z.number().int().nullable(),
  reminders: z.array(Reminder),
  is_active: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const fields = {
  name: z.string().trim().min(1).max(200),
  duration_minutes: minutes(5, 1440).meta({ description: '5 … 1440' }),
  resource_ids: z
    .array(z.string().min(1).max(64))
    .min(1)
    .max(100)
    .meta({ description: 'At least one resource of this tenant (422 otherwise)' }),
  buffer_before_minutes: minutes(0, 240).meta({ description: '0 … 240, default 0' }),
  buffer_after_minutes: minutes(0, 240).meta({ description: '0 … 240, default 0' }),
  min_notice_minutes: minutes(0, 525_600).meta({ description: 'How soon a booking may start, default 0' }),
  booking_window_days: z
    .number()
    .int()
    .min(1)
    .max(730)
    .meta({ description: 'How far ahead (1 … 730 days, default 90)' }),
  slot_interval_minutes: minutes(5, 1440).meta({ description: 'The slot grid step, default: the duration' }),
  price: Money.nullable(),
  payment: PaymentMode.meta({
    description:
      'none (default), deposit or full: anything but none needs a price, and the booking is held until paid',
  }),
  deposit_amount: z
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .nullable()
    .meta({ description: 'Required with payment deposit: at most the price, in its currency' }),
  reminders: z.array(Reminder).max(3).meta({ description: 'At most 3 WhatsApp template reminders' }),
  is_active: z.boolean(),
};

export const CreateServiceInput = z.object({
  name: fields.name,
  duration_minutes: fields.duration_minutes,
  resource_ids: fields.resource_ids,
  buffer_before_minutes: fields.buffer_before_minutes.default(0),
  buffer_after_minutes: fields.buffer_after_minutes.default(0),
  min_notice_minutes: fields.min_notice_minutes.default(0),
  booking_window_days: fields.booking_window_days.default(90),
  slot_interval_minutes: fields.slot_interval_minutes.optional().nullable(),
  price: fields.price.optional(),
  payment: fields.payment.default('none'),
  deposit_amount: fields.deposit_amount.optional(),
  reminders: fields.reminders.default([]),
  is_active: fields.is_active.default(true),
});

export const UpdateServiceInput = z.object({
  name: fields.name.optional(),
  duration_minutes: fields.duration_minutes.optional(),
  resource_ids: fields.resource_ids.optional(),
  buffer_before_minutes: fields.buffer_before_minutes.optional(),
  buffer_after_minutes: fields.buffer_after_minutes.optional(),
  min_notice_minutes: fields.min_notice_minutes.optional(),
  booking_window_days: fields.booking_window_days.optional(),
  slot_interval_minutes: fields.slot_interval_minutes.optional().nullable(),
  price: fields.price.optional(),
  payment: fields.payment.optional(),
  deposit_amount: fields.deposit_amount.optional(),
  reminders: fields.reminders.optional(),
  is_active: fields.is_active.optional(),
});

export type CreateServiceInput = z.output<typeof CreateServiceInput>;
export type UpdateServiceInput = z.output<typeof UpdateServiceInput>;
export type ReminderSpec = z.output<typeof Reminder>;
