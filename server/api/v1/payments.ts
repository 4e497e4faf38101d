import { listOf } from '@/server/api/schemas/common';
import { createPayment } from '@/server/domain/payments/create-payment';
import { failPayment } from '@/server/domain/payments/fail-payment';
import { getPayment } from '@/server/domain/payments/get-payment';
import { listPayments } from '@/server/domain/payments/list-payments';
import { refundPayment } from '@/server/domain/payments/refund-payment';
import {
  CreatePaymentInput,
  Payment,
  PaymentListQuery,
  RefundPaymentInput,
  SucceedPaymentInput,
} from '@/server/domain/payments/schemas';
import { succeedPayment } from '@/server/domain/payments/succeed-payment';
import { json, tenantRoute } from '@/server/http/route';

const tag = 'Payments';
const STATES = 'States: pending → succeeded | failed; succeeded → refunded; failed and refunded are final.';
const MANUAL_ONLY =
  "Manual payments only: a Stripe payment follows Stripe's webhooks and answers 409 invalid_transition.";

export const paymentRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/payments',
    operationId: 'listPayments',
    tag,
    permission: 'payments.read',
    summary: "List the tenant's payments",
    description: 'Filters: status, booking_id.',
    query: PaymentListQuery,
    responses: { 200: { description: 'One page, newest first', schema: listOf(Payment, 'PaymentList') } },
    handler: async ({ ctx, query }) => json(200, await listPayments(ctx, query)),
  }),
  tenantRoute({
    method: 'POST',
    path: '/payments',
    operationId: 'createPayment',
    tag,
    permission: 'payments.write',
    summary: 'Record a payment (starts pending)',
    description:
      'Records a payment collected outside the service (provider manual). amount is a positive integer in ' +
      'minor units, currency an ISO 4217 code; booking_id, if given, must be a booking of this tenant (422). ' +
      'Stripe payments are not recorded here: they are created with their Checkout Session. Emits ' +
      'payment.created.',
    body: CreatePaymentInput,
    responses: { 201: { description: 'Created', schema: Payment } },
    handler: async ({ ctx, body }) => json(201, await createPayment(ctx, body)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/payments/{id}',
    operationId: 'getPayment',
    tag,
    permission: 'payments.read',
    summary: 'Read a payment',
    responses: { 200: { description: 'The payment', schema: Payment } },
    handler: async ({ ctx, params }) => json(200, await getPayment(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/payments/{id}/succeed',
    operationId: 'succeedPayment',
    tag,
    permission: 'payments.write',
    summary: 'Mark a pending payment as succeeded',
    description: `Emits payment.succeeded. ${MANUAL_ONLY} ${STATES}`,
    body: SucceedPaymentInput,
    responses: { 200: { description: 'The payment', schema: Payment } },
    handler: async ({ ctx, params, body }) =>
      json(200, await succeedPayment(ctx, { id: params.id, providerRef: body.provider_ref })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/payments/{id}/fail',
    operationId: 'failPayment',
    tag,
    permission: 'payments.write',
    summary: 'Mark a pending payment as failed',
    description: `Emits payment.failed. ${MANUAL_ONLY} ${STATES}`,
    responses: { 200: { description: 'The payment', schema: Payment } },
    handler: async ({ ctx, params }) => json(200, await failPayment(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/payments/{id}/refund',
    operationId: 'refundPayment',
    tag,
    permission: 'payments.write',
    summary: 'Refund a succeeded payment (Stripe payments: in full or in part, through Stripe)',
    description:
      'Manual payments are refunded in full (the body may be empty; an amount other than the whole is 422). ' +
      'Stripe payments are refunded through Stripe: amount (default: what remains) must not exceed amount − ' +
      'refunded_amount (422 otherwise); refunded_amount records the total, and the whole amount refunded makes ' +
      'the payment refunded. The refund at Stripe carries an idempotency key derived from this request (from ' +
      'its Idempotency-Key when sent, else from the amount already refunded), so retrying a request whose ' +
      'answer was lost never refunds twice. Stripe not connected: 409 payment_provider_missing; Stripe out of ' +
      'reach: 502 payment_provider_unavailable (nothing recorded; retry); Stripe refusing: 422 ' +
      'payment_provider_refused. Every refund, full or partial, is in the audit log (action payment.refunded, ' +
      'target the payment, details {amount, currency}) and emits payment.refunded (data.object.refunded_amount ' +
      'the new total; status stays succeeded while it is partial), once: a retried request, Stripe replaying ' +
      'the refund and Stripe’s charge.refunded webhook echoing it back all find it recorded (by its Stripe ' +
      'refund id). A refund made in Stripe’s dashboard is recorded the same way when its webhook arrives, with ' +
      `the actor {type: "stripe"}. ${STATES}`,
    body: RefundPaymentInput,
    responses: { 200: { description: 'The payment', schema: Payment } },
    errors: [502],
    handler: async ({ ctx, params, body }) =>
      json(200, await refundPayment(ctx, { id: params.id, amount: body.amount })),
  }),
];
