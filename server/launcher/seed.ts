// Development only: a demo tenant on first start, so the API and dashboard show something real.
import { db } from '@/server/db/client';
import { findServiceSlots } from '@/server/domain/availability/find-slots';
import { cancelBooking } from '@/server/domain/bookings/cancel-booking';
import { completeBooking } from '@/server/domain/bookings/complete-booking';
import { confirmBooking } from '@/server/domain/bookings/confirm-booking';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { CreateBookingInput } from '@/server/domain/bookings/schemas';
import { updateBooking } from '@/server/domain/bookings/update-booking';
import { registerChannel } from '@/server/domain/channels/register-channel';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { assignConversation } from '@/server/domain/conversations/assign-conversation';
import { handoffConversation } from '@/server/domain/conversations/handoff-conversation';
import { receiveMessage } from '@/server/domain/conversations/receive-message';
import { resolveConversation } from '@/server/domain/conversations/resolve-conversation';
import { createPayment } from '@/server/domain/payments/create-payment';
import { refundPayment } from '@/server/domain/payments/refund-payment';
import { succeedPayment } from '@/server/domain/payments/succeed-payment';
import { createResource } from '@/server/domain/resources/manage-resources';
import { CreateResourceInput } from '@/server/domain/resources/schemas';
import { createService } from '@/server/domain/services/manage-services';
import { CreateServiceInput } from '@/server/domain/services/schemas';
import { createTenantWithAdmin, createUser } from '@/server/domain/tenants';

export const DEMO = {
  tenantName: 'Demo Clinic',
  adminEmail: 'admin@demo.switchboard.test',
  adminPassword: 'switchboard-demo',
  agentEmail: 'agent@demo.switchboard.test',
  agentPassword: 'switchboard-agent',
};

export async function seedDemoTenant(say: (line: string) => void, port: number): Promise<void> {
  const existing = await db().user.findUnique({
    where: { email: DEMO.adminEmail },
    include: { memberships: true },
  });
  let tenantId = existing?.memberships[0]?.tenantId;
  if (!tenantId) {
    const created = await createTenantWithAdmin({
      name: DEMO.tenantName,
      adminEmail: DEMO.adminEmail,
      adminPassword: DEMO.adminPassword,
      adminName: 'Demo Admin',
    });
    tenantId = created.tenantId;
    const agent = await createUser({
      tenantId,
      email: DEMO.agentEmail,
      password: DEMO.agentPassword,
      role: 'agent',
      name: 'Demo Agent',
    });
    await seedDemoData(tenantId, agent.userId);
    say(`Seeded the demo tenant ${tenantId}; its first API key (shown once): ${created.apiKey}`);
  }
  say(
    `Sign in at http://localhost:${port}/login as ${DEMO.adminEmail} / ${DEMO.adminPassword} (agent: ` +
      `${DEMO.agentEmail} / ${DEMO.agentPassword})`,
  );
  say(`API: X-Tenant-ID: ${tenantId}; reference at http://localhost:${port}/docs`);
}

/**
 * Bookings in every state, WhatsApp conversations (one waiting in the hand-off queue) with their
 * messages, and payments, all made through the domain functions so their events exist too. The
 * WhatsApp number is a placeholder not connected to Meta: replies on it fail with the provider's
 * reason until a real channel is registered.
 */
async function seedDemoData(tenantId: string, agentUserId: string): Promise<void> {
  const ctx = operationContext(tenantId, SYSTEM_ACTOR);
  const at = (days: number, hour: number, minutes = 0) => {
    const d = new Date();
    d.setUTCDate(d.getUTCDate() + days);
    d.setUTCHours(hour, minutes, 0, 0);
    return d.toISOString();
  };
  const book = (name: string, email: string, service: string, days: number, hour: number) =>
    createBooking(ctx, {
      customer: { name, email, phone: null },
      service,
      start_at: at(days, hour),
      end_at: at(days, hour, 45),
      notes: null,
      metadata: { source: 'demo seed' },
    });

  await book('Maria Garcia', 'maria@example.com', 'Dental check-up', 1, 9);
  const confirmed = await book('Tom Becker', 'tom@example.com', 'Teeth cleaning', 2, 14);
  await confirmBooking(ctx, { id: confirmed.id });
  const moved = await book('Aiko Tanaka', 'aiko@example.com', 'Consultation', 3, 10);
  await confirmBooking(ctx, { id: moved.id });
  await updateBooking(ctx, {
    id: moved.id,
    changes: { start_at: at(4, 11), end_at: at(4, 11, 45) },
  });
  const done = await book('Lena Fischer', 'lena@example.com', 'Filling', -2, 15);
  await confirmBooking(ctx, { id: done.id });
  await completeBooking(ctx, { id: done.id });
  const cancelled = await book('Omar Haddad', 'omar@example.com', 'Whitening', 5, 16);
  await cancelBooking(ctx, { id: cancelled.id, reason: 'Customer is travelling' });

  const paid = await createPayment(ctx, {
    amount: 8500,
    currency: 'EUR',
    booking_id: done.id,
    provider: 'manual',
  });
  await succeedPayment(ctx, { id: paid.id, providerRef: 'receipt-0001' });
  await createPayment(ctx, {
    amount: 6000,
    currency: 'EUR',
    booking_id: confirmed.id,
    provider: 'manual',
  });
  const refunded = await createPayment(ctx, {
    amount: 12000,
    currency: 'EUR',
    booking_id: cancelled.id,
    provider: 'manual',
  });
  await succeedPayment(ctx, { id: refunded.id });
  await refundPayment(ctx, { id: refunded.id });

  await seedServices(ctx);

  // A placeholder not connected to Meta: there is no real number for the Graph API to confirm.
  const channel = await registerChannel(ctx, {
    type: 'whatsapp',
    phone_number_id: '100000000000001',
    access_token: 'demo-placeholder-token',
    display_name: 'Demo number (not connected to Meta)',
  });
  let n = 0;
  const inbound = async (from: string, name: string, text: string) => {
    const result = await receiveMessage(ctx, {
      channelId: channel.id,
      from,
      contactName: name,
      externalId: `wamid.demo-seed-${++n}`,
      text,
    });
    if (result.duplicate) throw new Error('demo seed message stored twice');
    return result.conversationId;
  };

  const waiting = await inbound(
    '4915112345678',
    'Maria Garcia',
    'Hi! Can I move tomorrow’s check-up to Friday afternoon?',
  );
  await inbound('4915112345678', 'Maria Garcia', 'Also, my insurance changed. Do you take TK?');
  await handoffConversation(ctx, {
    id: waiting,
    reason: 'Insurance question the assistant cannot answer',
    summary:
      'Maria wants to move her check-up to Friday afternoon and asks whether TK insurance is accepted.',
  });

  await inbound('4917098765432', 'Tom Becker', 'What are your opening hours on Saturday?');

  const resolved = await inbound('4917611122233', 'Lena Fischer', 'My filling feels a bit high when I bite.');
  await handoffConversation(ctx, {
    id: resolved,
    reason: 'Clinical question',
    summary: 'Bite feels high after a filling.',
  });
  await assignConversation(ctx, { id: resolved, userId: agentUserId });
  await resolveConversation(ctx, { id: resolved });
}

/**
 * Two resources in Madrid with weekly hours and two services on them, so GET /slots shows real free
 * times; the first free slots of the coming days get a confirmed booking and a hold.
 */
async function seedServices(ctx: ReturnType<typeof operationContext>): Promise<void> {
  const split = [
    { start: '09:00', end: '13:00' },
    { start: '14:00', end: '18:00' },
  ];
  const doctor = await createResource(
    ctx,
    CreateResourceInput.parse({
      name: 'Dr. Elena López',
      kind: 'staff',
      time_zone: 'Europe/Madrid',
      weekly_hours: {
        mon: split,
        tue: split,
        wed: split,
        thu: split,
        fri: [{ start: '09:00', end: '15:00' }],
      },
    }),
  );
  const room = await createResource(
    ctx,
    CreateResourceInput.parse({
      name: 'Hygiene room',
      kind: 'room',
      time_zone: 'Europe/Madrid',
      weekly_hours: Object.fromEntries(
        ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [{ start: '08:00', end: '20:00' }]]),
      ),
    }),
  );
  const checkUp = await createService(
    ctx,
    CreateServiceInput.parse({
      name: 'Dental check-up',
      duration_minutes: 30,
      resource_ids: [doctor.id],
      buffer_after_minutes: 10,
      min_notice_minutes: 120,
      slot_interval_minutes: 30,
      price: { amount: 4500, currency: 'EUR' },
    }),
  );
  const cleaning = await createService(
    ctx,
    CreateServiceInput.parse({
      name: 'Teeth cleaning',
      duration_minutes: 45,
      resource_ids: [room.id, doctor.id],
      buffer_before_minutes: 5,
      buffer_after_minutes: 10,
      slot_interval_minutes: 15,
      price: { amount: 6000, currency: 'EUR' },
    }),
  );
  const today = new Date().toISOString().slice(0, 10);
  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  for (const [service, customer, hold] of [
    [checkUp, { name: 'Sofia Rossi', email: 'sofia@example.com', phone: '+393331234567' }, false],
    [cleaning, { name: 'Jonas Weber', email: 'jonas@example.com', phone: '+4915712345678' }, true],
  ] as const) {
    const { days } = await findServiceSlots(ctx, {
      service_id: service.id,
      start: today,
      end: inAWeek,
      time_zone: 'Europe/Madrid',
    });
    const slot = Object.values(days).flat()[3];
    if (!slot) continue;
    const booking = await createBooking(
      ctx,
      CreateBookingInput.parse({
        service_id: service.id,
        start_at: slot.start,
        customer,
        ...(hold ? { hold_expires_at: new Date(Date.now() + 20 * 3_600_000).toISOString() } : {}),
      }),
    );
    if (!hold) await confirmBooking(ctx, { id: booking.id });
  }
}
