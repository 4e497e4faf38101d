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
  SucceedPaymentInput,
} from '@/server/domain/payments/schemas';
import { succeedPayment } from '@/server/domain/payments/succeed-payment';
import { json, tenantRoute } from '@/server/http/route';

const tag = 'Payments';
const STATES = 'States: pending → succeeded | failed; succeeded → refunded; failed and refunded are final.';

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
      'amount is a positive integer in minor units, currency an ISO 4217 code; booking_id, if given, must ' +
      'be a booking of this tenant (422). Emits payment.created.',
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
    description: `Emits payment.succeeded. ${STATES}`,
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
    description: `Emits payment.failed. ${STATES}`,
    responses: { 200: { description: 'The payment', schema: Payment } },
    handler: async ({ ctx, params }) => json(200, await failPayment(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/payments/{id}/refund',
    operationId: 'refundPayment',
    tag,
    permission: 'payments.write',
    summary: 'Refund a succeeded payment in full',
    description: `Emits payment.refunded. ${STATES}`,
    responses: { 200: { description: 'The payment', schema: Payment } },
    handler: async ({ ctx, params }) => json(200, await refundPayment(ctx, { id: params.id })),
  }),
];
