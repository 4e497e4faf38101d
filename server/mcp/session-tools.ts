// The toolbox of an assistant session (POST /conversations/{id}/assistant-sessions): the assistant
// talks to one customer, so each tool acts for that conversation's contact and no one else, whatever
// the customer types. Each is a staff tool (./tools.ts, itself derived from its REST route) narrowed:
// the conversation and the customer are bound from the session (never inputs a model could fill),
// bookings come back as `CustomerBooking` (nothing of the customer, the business's notes or anyone
// else), and the domain applies the same binding itself (`ctx.actingFor`,
// server/domain/assistant-sessions/customer-scope.ts): another customer's booking is not found,
// another conversation is not found, a new booking is the contact's.
//
// The toolbox is this declared list: a tool joins it with one line naming its staff tool and what
// the session binds.

import type { Page } from '@/server/db/pagination';
import { contactAsCustomer } from '@/server/domain/assistant-sessions/customer-scope';
import { customerBookings } from '@/server/domain/assistant-sessions/customer-view';
import { CustomerBooking, CustomerBookingList } from '@/server/domain/assistant-sessions/schemas';
import type { BookingResource } from '@/server/domain/bookings/serialize';
import type { ActingFor } from '@/server/domain/context';
import { type AssistantTool, type ToolOptions, toolFrom } from './tool';
import { ASSISTANT_TOOLS, keepFirstEntries } from './tools';

/** The session's conversation, for a tool whose route names one in its path. */
const THIS_CONVERSATION = { id: (acting: ActingFor) => acting.conversationId };

const ONE_BOOKING: ToolOptions['answer'] = {
  schema: CustomerBooking,
  present: async (ctx, body) => (await customerBookings(ctx, [body as BookingResource]))[0],
};
const BOOKINGS: ToolOptions['answer'] = {
  schema: CustomerBookingList,
  present: async (ctx, body) => ({ data: await customerBookings(ctx, (body as Page<BookingResource>).data) }),
};

/** A staff tool narrowed for a session: its route and validation, the session's binding and answer. */
function sessionTool(name: string, narrowing: Partial<Omit<ToolOptions, 'name'>>): AssistantTool {
  const staff = ASSISTANT_TOOLS.find((tool) => tool.name === name);
  if (!staff) throw new Error(`no assistant tool ${name}`);
  const { route, ...options } = staff;
  return toolFrom(route, {
    ...options,
    ...(narrowing.bind?.id ? { idParam: undefined } : {}),
    ...narrowing,
    name,
  });
}

/** Read by the model when it connects with a session token (the `instructions` of initialize). */
export const SESSION_INSTRUCTIONS =
  'Tools of one business on Switchboard, for the one customer of this conversation: you act for them and ' +
  'for no one else. Find free times of the business’s services, offer them as a list the customer taps, ' +
  'book one for this customer, list, move ' +
  'and cancel their own bookings, write to them in this conversation, and hand the conversation to a ' +
  'person. Whoever the customer says they are, bookings are always theirs: a booking of anyone else is ' +
  'not_found. Times are RFC 3339 timestamps in UTC (e.g. 2027-03-01T08:00:00.000Z); find_slots gives the ' +
  'valid start_at values. A refused call answers isError with a problem document whose code says why: ' +
  'slot_unavailable (taken: offer another time), validation_failed (errors[] names each field), not_found, ' +
  'invalid_transition (not possible in the current state), handled_by_human (a person handles the ' +
  'conversation now: stop writing), outside_customer_service_window (only a template can reach the ' +
  'customer now).';

export const SESSION_TOOLS: readonly AssistantTool[] = [
  sessionTool('find_slots', {}),
  sessionTool('offer_slots', {
    description:
      'Offer this customer free times of a service as a WhatsApp list they tap, instead of typing times: ' +
      'one list message of up to 10 free times over `days` local days (1 to 7, default 3) from `date` ' +
      '(YYYY-MM-DD, default today) in `time_zone` (IANA, default the service’s). Their tap holds the time ' +
      'at once and the service answers them itself (Confirm / Other times, or a payment link): you need not ' +
      'book. With booking_id (one of this customer’s pending or confirmed bookings) a tap moves it instead. ' +
      'no_free_slots: nothing free in those days, try other days; handled_by_human: a person handles the ' +
      'conversation now, nothing was sent; outside_customer_service_window: nothing was sent.',
    bind: THIS_CONVERSATION,
  }),
  sessionTool('book_slot', {
    description:
      'Book a service for this customer, the one you are talking to, at a free time. Their name and phone ' +
      'are taken from the conversation. start_at is a slot start from find_slots (RFC 3339, UTC); ' +
      'resource_id, one of that slot’s resource_ids, picks who or what is booked (default: the least busy ' +
      'free one). The booking starts pending until the business confirms it or, for a paid service, the ' +
      'customer pays: when the answer carries payment.checkout_url, send that link to the customer. ' +
      'slot_unavailable means the time was taken meanwhile and nothing was booked: call find_slots again ' +
      'and offer another time.',
    pick: ['service_id', 'start_at', 'resource_id'],
    bind: { customer: contactAsCustomer },
    answer: ONE_BOOKING,
  }),
  sessionTool('list_customer_bookings', {
    description:
      'This customer’s own bookings, up to 100, newest first, to answer about an appointment or to get the ' +
      'booking_id to move or cancel. Only theirs (by the phone of this conversation). Each has its status ' +
      '(pending, confirmed, cancelled, completed, expired, no_show), start_at and end_at in UTC, ' +
      'service_id, resource_id, hold_expires_at and, when it has one, its payment (status, checkout_url). ' +
      'No input.',
    pick: [],
    rename: {},
    requireOneOf: [],
    answer: BOOKINGS,
    cut: keepFirstEntries,
  }),
  sessionTool('reschedule_booking', {
    description:
      'Move one of this customer’s pending or confirmed bookings (booking_id from list_customer_bookings or ' +
      'book_slot) to another free time of its service (start_at from find_slots, RFC 3339, UTC; ' +
      'resource_id optional). not_found: no booking of this customer has that id. slot_unavailable: the ' +
      'time was taken, the booking stays as it was. invalid_transition: a cancelled, completed, expired or ' +
      'no-show booking cannot move.',
    answer: ONE_BOOKING,
  }),
  sessionTool('cancel_booking', {
    description:
      'Cancel one of this customer’s pending or confirmed bookings, when they ask to. reason (optional, a ' +
      'few words) is kept on the booking. not_found: no booking of this customer has that id. ' +
      'invalid_transition: it is already cancelled, or completed, expired or a no-show.',
    answer: ONE_BOOKING,
  }),
  sessionTool('send_message', {
    description:
      'Write to this customer in this conversation: text, plain, at most 4096 characters. handled_by_human: ' +
      'a person of the business handles the conversation now, nothing was sent; stop writing. ' +
      'outside_customer_service_window: more than 24 h since the customer wrote on WhatsApp, nothing was ' +
      'sent. The answer is the message: status sent, queued (sent again shortly) or failed.',
    pick: ['text'],
    required: ['text'],
    bind: THIS_CONVERSATION,
  }),
  sessionTool('hand_off_to_human', {
    description:
      'Hand this conversation to a person of the business: when the customer asks for a human, is upset, or ' +
      'needs something your tools cannot do. reason says why in a few words; summary tells the person what ' +
      'happened and what the customer wants. The conversation joins the team’s queue and you stop writing ' +
      'in it (send_message answers handled_by_human from then on).',
    bind: THIS_CONVERSATION,
  }),
];
