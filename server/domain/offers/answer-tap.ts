// A customer's tap in WhatsApp, answered: a row of an offer's list, a reply button, or a reminder's
// quick reply. The inbound message is stored with the tap (receive-message.ts), and in the same
// transaction a `conversation.tap` timer, due at once, is planned for it: the background runtime
// answers it within moments (server/runtime/timers/fire.ts), retries it if anything fails, and a
// repeated webhook (the same WhatsApp message id) stores nothing and plans nothing.
//
// What a tap names is a choice (./offer-times.ts `newChoiceId`): resolved only within the
// conversation it was sent in, never read as data. The answer runs in two steps:
//   1. the act (hold, move, confirm, cancel...), through the ordinary booking operations, so their
//      rules, events, timers and audit apply; taps on one offer run one at a time (`serialized`), so
//      two rows tapped at once never make two bookings: the second moves what the first held;
//   2. one transaction: the timer's fired mark, the new choices and the reply messages queued (and a
//      new offer when the time was taken or the list expired); the replies are sent after its commit.
// A repeated tap (the same row again) changes no booking; it is answered again with where things stand.
import { settings } from '@/server/config/settings';
import { serialized } from '@/server/db/advisory-lock';
import type { Booking, Choice, Conversation, Message } from '@/server/db/generated/client';
import { transaction } from '@/server/db/unit-of-work';
import { localDateOf } from '@/server/domain/availability/time-zones';
import { cancelBooking } from '@/server/domain/bookings/cancel-booking';
import { confirmAttendance } from '@/server/domain/bookings/confirm-attendance';
import { createBooking } from '@/server/domain/bookings/create-booking';
import { rescheduleBooking } from '@/server/domain/bookings/reschedule-booking';
import { CreateBookingInput, PhoneNumber } from '@/server/domain/bookings/schemas';
import { type BookingResource, presentBooking } from '@/server/domain/bookings/serialize';
import { confirmExpiredBooking, transitionBooking } from '@/server/domain/bookings/transition';
import { type OperationContext, operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { attemptSend, queueOutboundMessage } from '@/server/domain/conversations/send-message';
import type { StoredReply } from '@/server/domain/conversations/serialize';
import { AppError } from '@/server/lib/errors';
import { logger } from '@/server/log';
import { type DueTimer, markFired } from '@/server/timers/plan';
import type { OutboundContent } from '@/server/whatsapp/graph-client';
import { newChoiceId } from './choice-id';
import * as say from './messages';
import { type PreparedOffer, prepareOffer, storeOffer } from './offer-times';

/** The kinds of choice the service sends (the `kind` of a Choice row). */
export type ChoiceKind = 'slot' | 'confirm' | 'other_times' | 'attend' | 'reschedule' | 'cancel';

/** What a tap is answered with: messages, the choices their buttons name, and offers to send. */
interface Answer {
  outcome: string;
  replies: Array<
    | { content: OutboundContent; choices?: Array<Pick<Choice, 'id' | 'kind' | 'bookingId' | 'offerId'>> }
    | { offer: PreparedOffer }
  >;
}

const nothing = (outcome: string): Answer => ({ outcome, replies: [] });

/** The `conversation.tap` timer's handler (subject: the inbound message that carries the tap). */
export async function answerTap(timer: DueTimer): Promise<string> {
  const ctx = operationContext(timer.tenantId, SYSTEM_ACTOR);
  const message = await ctx.db.message.findUnique({ where: { id: timer.subjectId } });
  const tap = message?.direction === 'inbound' ? (message.interactive as StoredReply | null) : null;
  const choice = tap ? await ctx.db.choice.findUnique({ where: { id: tap.id } }) : null;
  // Only a choice sent in this very conversation is acted on: any other id is ignored.
  if (!message || !choice || choice.conversationId !== message.conversationId) {
    if (message && tap)
      logger().info({ message_id: message.id }, 'a tap on nothing this conversation was offered');
    return finish(ctx, timer, message, null, nothing('unknown'));
  }
  const conversation = await ctx.db.conversation.findUniqueOrThrow({ where: { id: choice.conversationId } });
  const answer = await act(ctx, conversation, choice);
  return finish(ctx, timer, message, { choice, conversation }, answer);
}

async function act(ctx: OperationContext, conversation: Conversation, choice: Choice): Promise<Answer> {
  const kind = choice.kind as ChoiceKind;
  if (kind === 'slot') {
    const offerId = choice.offerId;
    if (!offerId) return nothing('no_offer');
    // Read under the lock: a tap that waited must see what the one before it held.
    return serialized(ctx.tenantId, `offer:${offerId}`, async () => {
      const offer = await ctx.db.offer.findUnique({ where: { id: offerId } });
      return offer ? tapSlot(ctx, conversation, choice, offer) : nothing('no_offer');
    });
  }
  const booking = choice.bookingId
    ? await ctx.db.booking.findUnique({ where: { id: choice.bookingId } })
    : null;
  if (!booking) return nothing('no_booking');
  switch (kind) {
    case 'confirm':
      return confirmHeld(ctx, conversation, choice, booking);
    case 'other_times':
      return otherTimes(ctx, conversation, choice, booking);
    case 'attend':
    case 'reschedule':
    case 'cancel':
      return reminderReply(ctx, conversation, kind, booking);
  }
}

type OfferRow = NonNullable<Awaited<ReturnType<OperationContext['db']['offer']['findUnique']>>>;

const isCode = (error: unknown, ...codes: string[]) =>
  error instanceof AppError && codes.includes(error.code);

async function tapSlot(
  ctx: OperationContext,
  conversation: Conversation,
  choice: Choice,
  offer: OfferRow,
): Promise<Answer> {
  const start = choice.startAt as Date;
  if (offer.expiresAt <= new Date()) return offerAgain(ctx, conversation, offer, say.expiredOfferText());
  const to = {
    start_at: start.toISOString(),
    ...(choice.resourceId ? { resource_id: choice.resourceId } : {}),
  };
  // An offer to move a booking: the tap reschedules it.
  if (offer.bookingId) {
    try {
      const moved = await rescheduleBooking(ctx, { id: offer.bookingId, ...to });
      return {
        outcome: 'moved',
        replies: [{ content: say.movedText(serviceName(moved), start, offer.timeZone) }],
      };
    } catch (error) {
      if (isCode(error, 'slot_unavailable')) return offerAgain(ctx, conversation, offer, say.takenText());
      if (isCode(error, 'invalid_transition', 'not_found')) return nothing('booking_gone');
      throw error;
    }
  }
  // A later tap on the same offer moves what the first one held, never books twice.
  const held = offer.heldBookingId
    ? await ctx.db.booking.findUnique({ where: { id: offer.heldBookingId } })
    : null;
  if (held && (held.status === 'pending' || held.status === 'confirmed')) {
    if (held.startAt.getTime() === start.getTime()) {
      return heldAnswer(await presentBooking(ctx.db, held), offer, 'unchanged');
    }
    try {
      return heldAnswer(await rescheduleBooking(ctx, { id: held.id, ...to }), offer, 'moved_hold');
    } catch (error) {
      if (isCode(error, 'slot_unavailable')) return offerAgain(ctx, conversation, offer, say.takenText());
      if (!isCode(error, 'invalid_transition')) throw error;
      // It ended meanwhile (expired): book afresh below.
    }
  }
  const service = await ctx.db.service.findUniqueOrThrow({ where: { id: offer.serviceId } });
  const phone = `+${conversation.contactPhone}`;
  // WhatsApp ids are E.164 digits; one that is not is left off the booking rather than refused.
  const validPhone = PhoneNumber.safeParse(phone).success ? phone : null;
  try {
    const booked = await createBooking(
      ctx,
      CreateBookingInput.parse({
        customer: { name: (conversation.contactName?.trim() || phone).slice(0, 200), phone: validPhone },
        service_id: service.id,
        ...to,
        // A paid service is held for its payment (PAYMENT_HOLD): createBooking decides.
        ...(service.payment === 'none'
          ? { hold_expires_at: new Date(Date.now() + settings().OFFER_HOLD).toISOString() }
          : {}),
      }),
      { conversationId: conversation.id },
    );
    await ctx.db.offer.update({ where: { id: offer.id }, data: { heldBookingId: booked.id } });
    return heldAnswer(booked, offer, 'held');
  } catch (error) {
    if (isCode(error, 'slot_unavailable')) return offerAgain(ctx, conversation, offer, say.takenText());
    // A paid service whose payment cannot be taken now (Stripe not connected, or out of reach):
    // nothing was held; the customer is told rather than kept waiting.
    if (
      isCode(error, 'payment_provider_missing', 'payment_provider_unavailable', 'payment_provider_refused')
    ) {
      return { outcome: 'no_payment', replies: [{ content: say.cannotPayText() }] };
    }
    throw error;
  }
}

/** What a held time is answered with: Confirm / Other times, or the payment link of a paid service. */
function heldAnswer(booking: BookingResource, offer: OfferRow, outcome: string): Answer {
  const name = serviceName(booking);
  const start = new Date(booking.start_at);
  const holdUntil = booking.hold_expires_at ? new Date(booking.hold_expires_at) : null;
  const checkoutUrl = booking.payment?.checkout_url;
  if (checkoutUrl && booking.status === 'pending') {
    const content = say.payLink({ serviceName: name, start, holdUntil, zone: offer.timeZone, checkoutUrl });
    return { outcome, replies: [{ content }] };
  }
  const confirm = { id: newChoiceId(), kind: 'confirm', bookingId: booking.id, offerId: offer.id };
  const other = { id: newChoiceId(), kind: 'other_times', bookingId: booking.id, offerId: offer.id };
  const content = say.heldButtons({
    serviceName: name,
    start,
    holdUntil,
    zone: offer.timeZone,
    confirmId: confirm.id,
    otherTimesId: other.id,
  });
  return { outcome, replies: [{ content, choices: [confirm, other] }] };
}

const serviceName = (booking: Pick<BookingResource, 'service'>) => booking.service ?? 'Your booking';

/** The zone a booking's times are told in: its offer's, else its resource's. */
async function zoneOf(ctx: OperationContext, booking: Booking, offerId: string | null): Promise<string> {
  const offer = offerId ? await ctx.db.offer.findUnique({ where: { id: offerId } }) : null;
  if (offer) return offer.timeZone;
  const resource = booking.resourceId
    ? await ctx.db.resource.findUnique({ where: { id: booking.resourceId } })
    : null;
  return resource?.timeZone ?? 'UTC';
}

/** Confirm: the held booking is confirmed (after its hold ran out, only while its slot is free). */
async function confirmHeld(
  ctx: OperationContext,
  conversation: Conversation,
  choice: Choice,
  booking: Booking,
): Promise<Answer> {
  const zone = await zoneOf(ctx, booking, choice.offerId);
  const confirmed = (b: BookingResource, outcome: string): Answer => ({
    outcome,
    replies: [{ content: say.confirmedText(serviceName(b), new Date(b.start_at), zone, manageUrlOf(b)) }],
  });
  if (booking.status === 'confirmed') return confirmed(await presentBooking(ctx.db, booking), 'unchanged');
  if (booking.status === 'pending') {
    try {
      // The slot is still the booking's while it is pending, whatever its hold says: confirm it.
      return confirmed(
        await transitionBooking(ctx, { id: booking.id, to: 'confirmed', event: 'booking.confirmed' }),
        'confirmed',
      );
    } catch (error) {
      if (!isCode(error, 'invalid_transition')) throw error;
    }
  }
  const now = await ctx.db.booking.findUniqueOrThrow({ where: { id: booking.id } });
  if (now.status === 'confirmed') return confirmed(await presentBooking(ctx.db, now), 'unchanged');
  if (now.status === 'expired') {
    try {
      return confirmed(
        await transaction(ctx, (tx) => confirmExpiredBooking(tx, { id: now.id })),
        'confirmed',
      );
    } catch (error) {
      if (!isCode(error, 'slot_unavailable')) throw error;
      const offer = choice.offerId ? await ctx.db.offer.findUnique({ where: { id: choice.offerId } }) : null;
      return offer ? offerAgain(ctx, conversation, offer, say.takenText()) : nothing('taken');
    }
  }
  return { outcome: 'not_active', replies: [{ content: say.noLongerActiveText(now.status) }] };
}

/** Other times: the pending booking is let go and the offer's days are offered again. */
async function otherTimes(
  ctx: OperationContext,
  conversation: Conversation,
  choice: Choice,
  booking: Booking,
): Promise<Answer> {
  const offer = choice.offerId ? await ctx.db.offer.findUnique({ where: { id: choice.offerId } }) : null;
  if (booking.status === 'pending') {
    await cancelBooking(ctx, { id: booking.id, reason: 'customer_cancelled' }).catch((error) => {
      if (!isCode(error, 'invalid_transition')) throw error; // ended meanwhile
    });
  } else if (booking.status !== 'expired') {
    return { outcome: 'not_pending', replies: [{ content: say.noLongerActiveText(booking.status) }] };
  }
  return offer ? offerAgain(ctx, conversation, offer, null) : nothing('no_offer');
}

/** A reminder's quick reply: I will come, move it, or cancel it. */
async function reminderReply(
  ctx: OperationContext,
  conversation: Conversation,
  kind: 'attend' | 'reschedule' | 'cancel',
  booking: Booking,
): Promise<Answer> {
  if (booking.status !== 'pending' && booking.status !== 'confirmed') {
    return { outcome: 'not_active', replies: [{ content: say.noLongerActiveText(booking.status) }] };
  }
  const zone = await zoneOf(ctx, booking, null);
  const name = booking.service ?? 'booking';
  if (kind === 'attend') {
    const { changed } = await confirmAttendance(ctx, { id: booking.id });
    return {
      outcome: changed ? 'attending' : 'unchanged',
      replies: [{ content: say.attendanceText(name, booking.startAt, zone) }],
    };
  }
  if (kind === 'cancel') {
    await cancelBooking(ctx, { id: booking.id, reason: 'customer_cancelled' });
    return { outcome: 'cancelled', replies: [{ content: say.cancelledText(name, booking.startAt, zone) }] };
  }
  if (!booking.serviceId) return nothing('free_form');
  const offer = await prepareOffer(
    ctx,
    {
      conversationId: conversation.id,
      service_id: booking.serviceId,
      booking_id: booking.id,
      date: localDateOf(booking.startAt.getTime(), zone),
      days: 3,
      time_zone: zone,
    },
    { strict: false },
  );
  return offer
    ? { outcome: 'offered', replies: [{ offer }] }
    : { outcome: 'no_times', replies: [{ content: say.noTimesText() }] };
}

/** A new offer for the same service and days (after `before`, when something needs saying first). */
async function offerAgain(
  ctx: OperationContext,
  conversation: Conversation,
  offer: OfferRow,
  before: OutboundContent | null,
): Promise<Answer> {
  const prepared = await prepareOffer(
    ctx,
    {
      conversationId: conversation.id,
      service_id: offer.serviceId,
      date: offer.date,
      days: offer.days,
      time_zone: offer.timeZone,
      ...(offer.resourceId ? { resource_id: offer.resourceId } : {}),
      ...(offer.bookingId ? { booking_id: offer.bookingId } : {}),
    },
    { strict: false },
  ).catch((error) => {
    // The booking to move, or the service, is gone meanwhile: nothing left to offer.
    if (isCode(error, 'validation_failed')) return null;
    throw error;
  });
  const first = before ? [{ content: before }] : [];
  if (!prepared) return { outcome: 'no_times', replies: [...first, { content: say.noTimesText() }] };
  return { outcome: 'offered_again', replies: [...first, { offer: prepared }] };
}

/** The booking's manage link, for the customer to change or cancel it themselves (null until there is one). */
function manageUrlOf(_booking: BookingResource): string | null {
  return null;
}

/**
 * Step 2: the timer's fired mark, the tapped choice's time, the replies (and their choices and offers)
 * queued, in one transaction; then the replies are sent, in order. 'stale' when another run of the
 * timer answered first.
 */
async function finish(
  ctx: OperationContext,
  timer: DueTimer,
  message: Message | null,
  tapped: { choice: Choice; conversation: Conversation } | null,
  answer: Answer,
): Promise<string> {
  const queued = await transaction(ctx, async (tx) => {
    const db = await tx.orm();
    if (!(await markFired(tx, timer))) return null;
    if (!tapped || !message) return [];
    await db.choice.update({ where: { id: tapped.choice.id }, data: { chosenAt: new Date() } });
    const out: Message[] = [];
    for (const reply of answer.replies) {
      if ('offer' in reply) {
        out.push((await storeOffer(tx, reply.offer)).message);
        continue;
      }
      out.push(
        await queueOutboundMessage(db, {
          tenantId: ctx.tenantId,
          conversationId: tapped.conversation.id,
          content: reply.content,
        }),
      );
      if (reply.choices?.length) {
        await db.choice.createMany({
          data: reply.choices.map((c) => ({
            ...c,
            tenantId: ctx.tenantId,
            conversationId: tapped.conversation.id,
          })),
        });
      }
    }
    return out;
  });
  if (queued === null) return 'stale';
  for (const reply of queued) await attemptSend(ctx, reply, tapped?.conversation);
  return answer.outcome;
}
