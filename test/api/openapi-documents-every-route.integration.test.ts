import { describe, expect, it } from 'vitest';
import { routes } from '@/server/api/routes';
import { ALL_PERMISSIONS } from '@/server/client-safe/permissions';
import { apiSuite } from '../support/harness';

const { api } = apiSuite({ tenant: false });

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked dynamically
type Doc = any;

describe('OpenAPI for bookings, conversations, channels, payments and WhatsApp', () => {
  const operations: [string, string, string, number[]][] = [
    ['get', '/api/v1/bookings', 'listBookings', [200, 422]],
    ['post', '/api/v1/bookings', 'createBooking', [201, 409, 422]],
    ['get', '/api/v1/bookings/{id}', 'getBooking', [200, 404]],
    ['patch', '/api/v1/bookings/{id}', 'updateBooking', [200, 404, 409, 422]],
    ['post', '/api/v1/bookings/{id}/confirm', 'confirmBooking', [200, 404, 409]],
    ['post', '/api/v1/bookings/{id}/cancel', 'cancelBooking', [200, 404, 409]],
    ['post', '/api/v1/bookings/{id}/complete', 'completeBooking', [200, 404, 409]],
    ['get', '/api/v1/conversations', 'listConversations', [200]],
    ['post', '/api/v1/conversations', 'createConversation', [201, 422]],
    ['get', '/api/v1/conversations/{id}', 'getConversation', [200, 404]],
    ['get', '/api/v1/conversations/{id}/messages', 'listConversationMessages', [200, 404]],
    ['post', '/api/v1/conversations/{id}/messages', 'sendConversationMessage', [201, 404]],
    ['post', '/api/v1/conversations/{id}/handoff', 'handoffConversation', [200, 409]],
    ['post', '/api/v1/conversations/{id}/assign', 'assignConversation', [200, 409, 422]],
    ['post', '/api/v1/conversations/{id}/resolve', 'resolveConversation', [200, 409]],
    ['post', '/api/v1/channels', 'createChannel', [201, 403, 409]],
    ['get', '/api/v1/channels', 'listChannels', [200, 403]],
    ['delete', '/api/v1/channels/{id}', 'deleteChannel', [204, 404]],
    ['get', '/api/v1/channels/whatsapp/webhook', 'verifyWhatsAppWebhook', [200, 403]],
    ['post', '/api/v1/channels/whatsapp/webhook', 'receiveWhatsAppWebhook', [200, 401, 503]],
    ['get', '/api/v1/payments', 'listPayments', [200]],
    ['post', '/api/v1/payments', 'createPayment', [201, 403, 422]],
    ['get', '/api/v1/payments/{id}', 'getPayment', [200, 404]],
    ['post', '/api/v1/payments/{id}/succeed', 'succeedPayment', [200, 403, 409]],
    ['post', '/api/v1/payments/{id}/fail', 'failPayment', [200, 403, 409]],
    ['post', '/api/v1/payments/{id}/refund', 'refundPayment', [200, 403, 409]],
  ];

  it('documents every route with its responses and errors', async () => {
    const res = await api('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc: Doc = res.body;
    for (const [method, path, operationId, statuses] of operations) {
      const op = doc.paths[path]?.[method];
      expect(op?.operationId, `${method} ${path}`).toBe(operationId);
      expect(op.summary).toBeTruthy();
      for (const status of statuses)
        expect(Object.keys(op.responses), `${operationId} ${status}`).toContain(String(status));
    }
    for (const schema of [
      'Booking',
      'Conversation',
      'Message',
      'Channel',
      'Payment',
      'CreateBookingRequest',
      'CreatePaymentRequest',
    ]) {
      expect(doc.components.schemas[schema], schema).toBeDefined();
    }
    expect(JSON.stringify(doc.components.schemas.Channel)).not.toContain('access_token');
    expect(doc.paths['/api/v1/channels/whatsapp/webhook'].post.security).toEqual([]);
  });
});

describe('x-permission', () => {
  it('every operation that takes a credential states the permission its route needs; public ones none', async () => {
    const doc: Doc = (await api('GET', '/openapi.json')).body;
    for (const route of routes) {
      const op = doc.paths[`/api/v1${route.path}`][route.method.toLowerCase()];
      const expected = route.auth === 'tenant' ? route.permission : undefined;
      expect(op['x-permission'], route.operationId).toBe(expected);
      if (expected) expect(op.description, route.operationId).toContain(`Permission \`${expected}\``);
    }
    // Named from the one table: every permission a route needs is one of it.
    for (const route of routes)
      if (route.auth === 'tenant') expect(ALL_PERMISSIONS, route.operationId).toContain(route.permission);
    expect(doc.components.schemas.Permission.enum).toEqual(ALL_PERMISSIONS);
    expect(doc.paths['/api/v1/conversations/{id}/assistant-sessions'].post['x-permission']).toBe(
      'assistant_sessions.create',
    );
  });
});
