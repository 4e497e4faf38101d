// What an operation may reach when an assistant session runs it (`ctx.actingFor`): the session's
// conversation, and the bookings of that conversation's contact. The operations themselves apply it
// (bookings: create, list, reschedule, cancel; conversations: send, hand off), so the binding holds
// whatever the tool layer passes them: a booking of anyone else is not found, another conversation is
// not found, a new booking is the contact's. Without `actingFor` (every other caller) nothing narrows.
import type { Prisma } from '@/server/db/generated/client';
import type { ActingFor, OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';

/** A phone as bookings store it (`+` and its digits: server/domain/bookings/schemas.ts), or null. */
export function phoneByDigits(phone: string | null | undefined): string | null {
  const digits = phone?.replace(/\D/g, '') ?? '';
  return digits.length > 0 ? `+${digits}` : null;
}

/** The contact's phone, matched by its digits against bookings' (null: the contact has none). */
export function contactPhone(actingFor: ActingFor): string | null {
  return phoneByDigits(actingFor.contact.phone);
}

/**
 * The bookings the caller may reach by id: all of the tenant's, or under a session only the contact's
 * (by phone, compared by its digits). A contact without a phone has none: the filter matches nothing.
 * Callers put it in an `AND` beside their own conditions, never spread it (an `id` of theirs would
 * replace its own).
 */
export function reachableBookings(ctx: OperationContext): Prisma.BookingWhereInput {
  if (!ctx.actingFor) return {};
  const phone = contactPhone(ctx.actingFor);
  return phone ? { customerPhone: phone } : { id: { in: [] } };
}

/** The customer a session's new booking is for: the contact's name and phone, never the input's. */
export function contactAsCustomer(actingFor: ActingFor): { name: string; phone: string | null } {
  const phone = contactPhone(actingFor);
  const name = actingFor.contact.name?.trim().slice(0, 200) || phone || 'WhatsApp customer';
  return { name, phone };
}

/** Under a session, any conversation but its own is not found (as another tenant's would be). */
export function assertReachableConversation(ctx: OperationContext, conversationId: string): void {
  if (ctx.actingFor && ctx.actingFor.conversationId !== conversationId) throw Errors.notFound('Conversation');
}
