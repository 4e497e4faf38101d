// Offering free times on WhatsApp (POST /conversations/{id}/offers, the assistant's `offer_slots`):
// the free slots of a service over 1–7 local days (server/domain/availability), at most 10 of them
// spread across the days, sent as one interactive list message whose row ids are random choices
// (./choices.ts) resolved only here. The customer's tap is answered by ./answer-tap.ts.
//
// Three steps, so the flows that offer again (a time taken meanwhile, "Other times") store their
// offer in the same transaction as the rest of their answer:
//   1. prepareOffer: checks and reads (nothing written); null when no time is free;
//   2. storeOffer, in the caller's unit of work: the offer, its choices and the queued message;
//   3. attemptSend after the commit (server/domain/conversations/send-message.ts).
import { settings } from '@/server/config/settings';
import type { Conversation, Message, Service } from '@/server/db/generated/client';
import { transaction, type UnitOfWork } from '@/server/db/unit-of-work';
import { assertReachableConversation } from '@/server/domain/assistant-sessions/customer-scope';
import { recordToolCall } from '@/server/domain/audit/record-audit';
import { findServiceSlots } from '@/server/domain/availability/find-slots';
import { addDays, canonicalTimeZone, localDateOf } from '@/server/domain/availability/time-zones';
import { ACTIVE_BOOKING_STATES } from '@/server/domain/bookings/transition';
import type { OperationContext } from '@/server/domain/context';
import { attemptSend, queueOutboundMessage, windowOpen } from '@/server/domain/conversations/send-message';
import { AppError, Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { LIMITS } from '@/server/whatsapp/interactive';
import { newChoiceId } from './choice-id';
import { offerList } from './messages';
import type { OfferInput, OfferResource } from './schemas';

export interface PreparedOffer {
  conversation: Conversation;
  service: Service;
  zone: string;
  date: string;
  days: number;
  resourceId: string | null;
  resourceName: string | null;
  bookingId: string | null;
  /** The times offered, by local day, each day in order. */
  slots: Array<Array<{ start: number; end: number }>>;
}

const digits = (phone: string | null | undefined) => (phone ?? '').replace(/\D/g, '');

/**
 * Step 1. With `strict` (a request: the API, the assistant), a closed customer service window is 422
 * and no free time 409, before anything is stored or sent; without it (offering again while answering
 * the customer, whose message just opened the window) no free time is null.
 */
export async function prepareOffer(
  ctx: OperationContext,
  input: { conversationId: string } & OfferInput,
  options: { strict: boolean },
): Promise<PreparedOffer | null> {
  const { db } = ctx;
  assertReachableConversation(ctx, input.conversationId);
  const conversation = await db.conversation.findUnique({ where: { id: input.conversationId } });
  if (!conversation) throw Errors.notFound('Conversation');
  // An assistant stops offering once a person handles the conversation, as it stops writing.
  if (ctx.actingFor && conversation.handledBy === 'human') throw Errors.handledByHuman();
  if (conversation.channel !== 'whatsapp' || !conversation.contactPhone) {
    throw Errors.validation([{ path: 'id', message: 'Times are offered on WhatsApp conversations only' }]);
  }
  if (options.strict && !windowOpen(conversation)) {
    throw Errors.outsideWindow(
      'The customer service window is closed: an offer of times is an interactive message, which WhatsApp ' +
        'allows only within 24 h of the customer’s last message',
    );
  }
  const service = await db.service.findUnique({ where: { id: input.service_id } });
  if (!service?.isActive)
    throw Errors.validation([{ path: 'service_id', message: 'No such active service' }]);
  if (input.resource_id && !service.resourceIds.includes(input.resource_id)) {
    throw Errors.validation([{ path: 'resource_id', message: 'Not a resource of this service' }]);
  }
  if (input.booking_id) {
    const booking = await db.booking.findUnique({ where: { id: input.booking_id } });
    const theirs =
      booking &&
      ACTIVE_BOOKING_STATES.includes(booking.status) &&
      booking.serviceId === service.id &&
      digits(booking.customerPhone) !== '' &&
      digits(booking.customerPhone) === digits(conversation.contactPhone);
    if (!theirs) {
      throw Errors.validation([
        {
          path: 'booking_id',
          message: 'Not a pending or confirmed booking of this service for the conversation’s contact',
        },
      ]);
    }
  }
  const firstResource = await db.resource.findUnique({
    where: { id: input.resource_id ?? service.resourceIds[0] },
  });
  const zone = canonicalTimeZone(input.time_zone ?? firstResource?.timeZone ?? 'UTC');
  if (!zone) throw Errors.validation([{ path: 'time_zone', message: 'Unknown IANA time zone' }]);
  const date = input.date ?? localDateOf(Date.now(), zone);
  const found = await findServiceSlots(ctx, {
    service_id: service.id,
    start: date,
    end: addDays(date, input.days - 1),
    time_zone: zone,
    resource_id: input.resource_id,
    reschedule_booking_id: input.booking_id,
  });
  const perDay = Object.values(found.days).map((list) =>
    list.map((s) => ({ start: Date.parse(s.start), end: Date.parse(s.end) })),
  );
  const slots = spread(perDay, LIMITS.rows);
  if (slots.every((day) => day.length === 0)) {
    if (!options.strict) return null;
    throw Errors.conflict('no_free_slots', 'No time of this service is free in those days: nothing was sent');
  }
  return {
    conversation,
    service,
    zone,
    date,
    days: input.days,
    resourceId: input.resource_id ?? null,
    resourceName: input.resource_id ? (firstResource?.name ?? null) : null,
    bookingId: input.booking_id ?? null,
    slots,
  };
}

/**
 * At most `max` slots of all days together, shared out between the days that have any (earlier days
 * first when it does not divide), and spread over each day rather than its first minutes: a customer
 * gets the morning, the afternoon and the evening to choose from.
 */
export function spread<T>(days: T[][], max: number): T[][] {
  const quota = days.map(() => 0);
  let left = max;
  while (left > 0) {
    const open = days.map((_, i) => i).filter((i) => days[i].length > quota[i]);
    if (open.length === 0) break;
    for (const i of open) {
      if (left === 0) break;
      quota[i]++;
      left--;
    }
  }
  return days.map((day, i) => {
    const n = quota[i];
    if (n === 0) return [];
    if (n >= day.length) return day;
    return Array.from({ length: n }, (_, k) => day[Math.floor((k * day.length) / n)]);
  });
}

/** Step 2, in the caller's unit of work: the offer, a choice per time, and its list message, queued. */
export async function storeOffer(
  tx: UnitOfWork,
  prepared: PreparedOffer,
): Promise<{ offer: OfferResource; message: Message }> {
  const db = await tx.orm();
  const offerId = newId('offer');
  const days = prepared.slots.map((day) => day.map((slot) => ({ id: newChoiceId(), ...slot })));
  const message = await queueOutboundMessage(db, {
    tenantId: tx.tenantId,
    conversationId: prepared.conversation.id,
    content: offerList({
      serviceName: prepared.service.name,
      durationMinutes: prepared.service.durationMinutes,
      resourceName: prepared.resourceName,
      zone: prepared.zone,
      days: days.map((rows) => ({ rows })),
      moving: prepared.bookingId !== null,
    }),
  });
  const expiresAt = new Date(Date.now() + settings().OFFER_TTL);
  await db.offer.create({
    data: {
      id: offerId,
      tenantId: tx.tenantId,
      conversationId: prepared.conversation.id,
      serviceId: prepared.service.id,
      resourceId: prepared.resourceId,
      bookingId: prepared.bookingId,
      date: prepared.date,
      days: prepared.days,
      timeZone: prepared.zone,
      messageId: message.id,
      expiresAt,
    },
  });
  const rows = days.flat();
  await db.choice.createMany({
    data: rows.map((row) => ({
      id: row.id,
      tenantId: tx.tenantId,
      conversationId: prepared.conversation.id,
      kind: 'slot',
      offerId,
      startAt: new Date(row.start),
      endAt: new Date(row.end),
      resourceId: prepared.resourceId,
    })),
  });
  return {
    message,
    offer: {
      id: offerId,
      conversation_id: prepared.conversation.id,
      service_id: prepared.service.id,
      booking_id: prepared.bookingId,
      message_id: message.id,
      time_zone: prepared.zone,
      expires_at: expiresAt.toISOString(),
      options: rows.map((row) => ({
        id: row.id,
        start_at: new Date(row.start).toISOString(),
        end_at: new Date(row.end).toISOString(),
      })),
    },
  };
}

/**
 * POST /conversations/{id}/offers: one list message of free times. 201 with the offer once its
 * message was handed to WhatsApp (the message records what came of it: sent, or failed with Meta's
 * reason); 422 (window closed, a bad service, resource or booking) and 409 no_free_slots send nothing.
 */
export async function offerTimes(
  ctx: OperationContext,
  input: { conversationId: string } & OfferInput,
): Promise<OfferResource> {
  const prepared = await prepareOffer(ctx, input, { strict: true });
  if (!prepared) throw new AppError('no_free_slots', 'No time of this service is free in those days');
  const { offer, message } = await transaction(ctx, async (tx) => {
    const stored = await storeOffer(tx, prepared);
    await recordToolCall(tx, ctx, { type: 'conversation', id: prepared.conversation.id });
    return stored;
  });
  await attemptSend(ctx, message, prepared.conversation);
  return offer;
}
