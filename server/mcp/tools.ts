// The AI assistant's toolbox (POST /mcp): each tool is one REST operation, derived from its route
// (server/mcp/tool.ts), so the assistant books, moves, cancels, writes and hands over exactly as an
// integration does through the API: same validation, permission, events and audit. What is written
// here is only what a model needs to read: the name, when to use the tool, what its fields mean.
// docs/integrators.md lists these tools with their fields (written by `npm run mcp:docs`).
import { availabilityRoutes } from '@/server/api/v1/availability';
import { bookingRoutes } from '@/server/api/v1/bookings';
import { conversationRoutes } from '@/server/api/v1/conversations';
import { cursorAfter } from '@/server/db/pagination';
import type { AnyRoute, AnyTenantRoute } from '@/server/http/route';
import { type AssistantTool, longestFitting, toolFrom } from './tool';

export function route(routes: readonly AnyRoute[], operationId: string): AnyTenantRoute {
  const found = routes.find((r) => r.operationId === operationId);
  if (found?.auth !== 'tenant') throw new Error(`no tenant route ${operationId}`);
  return found;
}

const BOOKING_ID = {
  name: 'booking_id',
  description: 'The booking’s id (bkg_…), as book_slot or list_customer_bookings answered it',
};
const CONVERSATION_ID = {
  name: 'conversation_id',
  description: 'The id (cnv_…) of the conversation with the customer',
};

type Slots = { days: Record<string, unknown[]> } & Record<string, unknown>;

/** find_slots' cut: the earliest slots that fit; the dates after the last one kept are left out. */
export function keepEarliestSlots(answer: unknown, fits: (candidate: unknown) => boolean): unknown {
  const { days, ...rest } = answer as Slots;
  const slots = Object.entries(days).flatMap(([date, list]) => list.map((slot) => ({ date, slot })));
  return longestFitting(
    slots,
    (kept) => {
      const cut: Record<string, unknown[]> = {};
      for (const { date, slot } of kept) {
        cut[date] ??= [];
        cut[date].push(slot);
      }
      return { ...rest, days: cut };
    },
    fits,
  );
}

/**
 * A page's cut: its first entries (the newest bookings) that fit, its next_cursor going on from the
 * last one kept (server/db/pagination.ts), so the next page starts where this one stopped.
 */
export function keepFirstEntries(answer: unknown, fits: (candidate: unknown) => boolean): unknown {
  const { data, ...rest } = answer as { data: unknown[] } & Record<string, unknown>;
  return longestFitting(
    data,
    (kept) => {
      const last = kept[kept.length - 1] as { id?: unknown } | undefined;
      const cursor =
        kept.length < data.length && typeof last?.id === 'string' && 'next_cursor' in rest
          ? { next_cursor: cursorAfter(last.id) }
          : {};
      return { ...rest, data: kept, ...cursor };
    },
    fits,
  );
}

/** Read by the model when it connects (the `instructions` of the MCP initialize answer). */
export const ASSISTANT_INSTRUCTIONS =
  'Tools of one business on Switchboard (the tenant of your credential): find free times of its services, ' +
  'book, move and cancel its customers’ appointments, write to customers and hand a conversation to a person. ' +
  'Times are RFC 3339 timestamps in UTC (e.g. 2027-03-01T08:00:00.000Z); find_slots gives the valid start_at ' +
  'values. A refused call answers isError with a problem document whose code says why: slot_unavailable ' +
  '(taken: offer another time), validation_failed (errors[] names each field), not_found, forbidden, ' +
  'invalid_transition (not possible in the current state), outside_customer_service_window (only a WhatsApp ' +
  'template can reach the customer now), no_free_slots (nothing free in those days). On WhatsApp, prefer ' +
  'offer_slots to listing times in text: the customer taps a time and the service books it.';

export const ASSISTANT_TOOLS: readonly AssistantTool[] = [
  toolFrom(route(availabilityRoutes, 'listSlots'), {
    name: 'find_slots',
    description:
      'Find the free times of one service, to offer them to the customer. Call it before book_slot and ' +
      'reschedule_booking: each slot’s start is a valid start_at for them. start and end are local dates ' +
      '(YYYY-MM-DD, inclusive, at most 31 days apart) read in time_zone, the customer’s IANA zone (e.g. ' +
      'Europe/Madrid; default UTC). The answer has every date of the range, each with its free slots in ' +
      'order (an empty list when nothing is free): start and end in UTC, and the resource_ids (staff, rooms) ' +
      'free then. Say times to the customer in their own zone. A long range can be cut (truncated: true): the ' +
      'earliest slots are kept; ask again from the last date shown for later ones.',
    pick: ['service_id', 'start', 'end', 'time_zone', 'resource_id'],
    cut: keepEarliestSlots,
  }),
  toolFrom(route(bookingRoutes, 'createBooking'), {
    name: 'book_slot',
    description:
      'Book a service for a customer at a free time. start_at is a slot start from find_slots (RFC 3339, ' +
      'UTC); resource_id, one of that slot’s resource_ids, picks who or what is booked (default: the least ' +
      'busy free one). customer needs a name; add the phone (international, e.g. +34600111222) and email you ' +
      'know. The booking starts pending until the business confirms it or, for a paid service, the ' +
      'customer pays: when the answer carries payment.checkout_url, send that link to the customer. ' +
      'hold_expires_at (RFC 3339, at most 24 h ahead) holds the time only until then. slot_unavailable means ' +
      'the time was taken meanwhile and nothing was booked: call find_slots again and offer another time.',
    pick: ['service_id', 'start_at', 'resource_id', 'customer', 'hold_expires_at'],
    required: ['service_id'],
  }),
  toolFrom(route(bookingRoutes, 'rescheduleBooking'), {
    name: 'reschedule_booking',
    description:
      'Move a pending or confirmed booking to another free time of its service (start_at from find_slots, ' +
      'RFC 3339, UTC). It keeps its resource when that one is free then, else another of the service’s ' +
      'resources takes it; resource_id picks one. slot_unavailable leaves the booking as it was: offer ' +
      'another time. invalid_transition: a cancelled, completed, expired or no-show booking cannot move. ' +
      'Answers the booking with its new start_at and end_at.',
    idParam: BOOKING_ID,
  }),
  toolFrom(route(bookingRoutes, 'cancelBooking'), {
    name: 'cancel_booking',
    description:
      'Cancel a pending or confirmed booking, when the customer asks to. reason (optional, a few words) is ' +
      'kept on the booking as cancellation_reason. invalid_transition: it is already cancelled, or completed, ' +
      'expired or a no-show. Answers the cancelled booking.',
    idParam: BOOKING_ID,
  }),
  toolFrom(route(bookingRoutes, 'listBookings'), {
    name: 'list_customer_bookings',
    description:
      'Find a customer’s bookings, to answer about an appointment or to get the booking_id to move or cancel. ' +
      'By phone (compared by its digits: +34600111222 and 34600111222 are the same) and/or email ' +
      '(case-insensitive); send at least one (both: bookings matching both). Answers a page of bookings ' +
      '(data), newest first, each with its status (pending, confirmed, cancelled, completed, expired, no_show), ' +
      'start_at and end_at in UTC, service_id and resource_id; when next_cursor is not null, call again with ' +
      'it as cursor for the older ones.',
    pick: ['customer_phone', 'customer_email', 'cursor'],
    rename: { phone: 'customer_phone', email: 'customer_email' },
    requireOneOf: ['phone', 'email'],
    fixed: { limit: 100 },
    cut: keepFirstEntries,
  }),
  toolFrom(route(conversationRoutes, 'sendConversationMessage'), {
    name: 'send_message',
    description:
      'Send the customer a message in a conversation. Exactly one of: text (plain text, at most 4096 ' +
      'characters), template (an approved WhatsApp template: name, language, components) or media (type, ' +
      'an https link, caption). On WhatsApp, text and media only go while the customer service window is ' +
      'open (24 h after the customer’s last message); otherwise the call is refused with ' +
      'outside_customer_service_window, nothing is sent, and only a template can reach the customer. The ' +
      'answer is the message: status sent, queued (sent again shortly) or failed with its failure_reason.',
    idParam: CONVERSATION_ID,
  }),
  toolFrom(route(conversationRoutes, 'offerTimes'), {
    name: 'offer_slots',
    description:
      'Offer the customer free times of a service on WhatsApp as a list they tap, instead of typing them: ' +
      'the service sends one list message of up to 10 free times over `days` local days (1 to 7, default 3) ' +
      'from `date` (YYYY-MM-DD, default today) in `time_zone` (IANA, default the service’s). The customer’s ' +
      'tap holds the time at once and the service answers them itself (Confirm / Other times, or a payment ' +
      'link for a paid service): you need not book. With booking_id (a pending or confirmed booking of this ' +
      'customer) a tap moves that booking instead. no_free_slots: nothing is free in those days, try other ' +
      'days; outside_customer_service_window: the customer has not written in 24 h, nothing was sent.',
    idParam: CONVERSATION_ID,
  }),
  toolFrom(route(conversationRoutes, 'handoffConversation'), {
    name: 'hand_off_to_human',
    description:
      'Hand the conversation to a person of the business: when the customer asks for a human, is upset, or ' +
      'needs something your tools cannot do. reason says why in a few words; summary tells the person what ' +
      'happened and what the customer wants, so they need not ask again. The conversation joins the team’s ' +
      'queue (status pending_human) and you stop answering in it. invalid_transition: a person already ' +
      'handles it, or it is resolved.',
    idParam: CONVERSATION_ID,
  }),
];
