import { listOf } from '@/server/api/schemas/common';
import {
  CreatePaymentBody,
  Payment,
  PaymentListQuery,
  SucceedPaymentBody,
} from '@/server/api/schemas/payments';
import { createPayment } from '@/server/domain/payments/create-payment';
import { failPayment } from '@/server/domain/payments/fail-payment';
import { getPayment } from '@/server/domain/payments/get-payment';
import { listPayments } from '@/server/domain/payments/list-payments';
import { refundPayment } from '@/server/domain/payments/refund-payment';
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
    role: 'agent',
    summary: "List the tenant's payments",
    description: 'Filters: status, booking_id.',
    query: PaymentListQuery,
    responses: { 200: { description: 'One page, newest first', schema: listOf(Payment, 'PaymentList') } },
    handler: async ({ db, query }) => json(200, await listPayments(db, query)),
  }),
  tenantRoute({
    method: 'POST',
    path: '/payments',
    operationId: 'createPayment',
    tag,
    role: 'admin',
    summary: 'Record a payment (starts pending)',
    description:
      'amount is a positive integer in minor units, currency an ISO 4217 code; booking_id, if given, must be a booking of this tenant (422). Emits payment.created.',
    body: CreatePaymentBody,
    responses: { 201: { description: 'Created', schema: Payment } },
    handler: async ({ db, tenantId, body }) => json(201, await createPayment(db, tenantId, body)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/payments/{id}',
    operationId: 'getPayment',
    tag,
    role: 'agent',
    summary: 'Read a payment',
    responses: { 200: { description: 'The payment', schema: Payment } },
    handler: async ({ db, tenantId, params }) => json(200, await getPayment(db, tenantId, { id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/payments/{id}/succeed',
    operationId: 'succeedPayment',
    tag,
    role: 'admin',
    summary: 'Mark a pending payment as succeeded',
    description: `Emits payment.succeeded. ${STATES}`,
    body: SucceedPaymentBody,
    responses: { 200: { description: 'The payment', schema: Payment } },
    handler: async ({ db, tenantId, params, body }) =>
      json(200, await succeedPayment(db, tenantId, { id: params.id, providerRef: body.provider_ref })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/payments/{id}/fail',
    operationId: 'failPayment',
    tag,
    role: 'admin',
    summary: 'Mark a pending payment as failed',
    description: `Emits payment.failed. ${STATES}`,
    responses: { 200: { description: 'The payment', schema: Payment } },
    handler: async ({ db, tenantId, params }) =>
      json(200, await failPayment(db, tenantId, { id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/payments/{id}/refund',
    operationId: 'refundPayment',
    tag,
    role: 'admin',
    summary: 'Refund a succeeded payment in full',
    description: `Emits payment.refunded. ${STATES}`,
    responses: { 200: { description: 'The payment', schema: Payment } },
    handler: async ({ db, tenantId, params }) =>
      json(200, await refundPayment(db, tenantId, { id: params.id })),
  }),
];
