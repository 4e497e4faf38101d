// What the service says to a customer in the WhatsApp booking flow: the list of free times, the
// buttons after a tap, the payment link, and the texts. Every interactive message is built within
// Meta's limits (server/whatsapp/interactive.ts: titles cut to fit, at most 10 rows) and checked
// again before it leaves. Times read in the offer's zone, with the zone named.
import { formatClock, formatDateTime } from '@/server/client-safe/time-format';
import type { OutboundContent } from '@/server/whatsapp/graph-client';
import { clip, type Interactive, LIMITS } from '@/server/whatsapp/interactive';

type Content = OutboundContent;

/** "Mon 30 Nov" of an instant in `zone` (a section title: ≤ 24). */
function dayTitle(ms: number, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  }).format(new Date(ms));
}

export interface OfferedDay {
  rows: Array<{ id: string; start: number; end: number }>;
}

/** The list message of an offer: one section per local day, a row per time (its id is the choice). */
export function offerList(input: {
  serviceName: string;
  durationMinutes: number;
  resourceName?: string | null;
  zone: string;
  days: OfferedDay[];
  moving: boolean;
}): Content {
  const what = input.resourceName ? `${input.serviceName} with ${input.resourceName}` : input.serviceName;
  const body = input.moving
    ? `Pick a new time for your ${what}. Times are in ${input.zone}.`
    : `Pick a time for ${what} (${input.durationMinutes} min). Times are in ${input.zone}.`;
  const interactive: Interactive = {
    type: 'list',
    body: { text: clip(body, LIMITS.body) },
    footer: { text: 'Tap a time to hold it for you' },
    action: {
      button: 'See times',
      sections: input.days
        .filter((day) => day.rows.length > 0)
        .map((day) => ({
          title: clip(dayTitle(day.rows[0].start, input.zone), LIMITS.sectionTitle),
          rows: day.rows.map((row) => ({
            id: row.id,
            title: clip(
              `${formatClock(row.start, input.zone)} – ${formatClock(row.end, input.zone)}`,
              LIMITS.rowTitle,
            ),
            description: clip(what, LIMITS.rowDescription),
          })),
        })),
    },
  };
  return { type: 'interactive', interactive };
}

const when = (start: Date, zone: string) => `${formatDateTime(start, zone)} (${zone})`;

/** After a tap held a free service's time: Confirm, or Other times. */
export function heldButtons(input: {
  serviceName: string;
  start: Date;
  holdUntil: Date | null;
  zone: string;
  confirmId: string;
  otherTimesId: string;
}): Content {
  const held = input.holdUntil
    ? ` It is held for you until ${formatClock(input.holdUntil, input.zone)}.`
    : '';
  return {
    type: 'interactive',
    interactive: {
      type: 'button',
      body: { text: clip(`${input.serviceName}, ${when(input.start, input.zone)}.${held}`, LIMITS.body) },
      action: {
        buttons: [
          { type: 'reply', reply: { id: input.confirmId, title: 'Confirm' } },
          { type: 'reply', reply: { id: input.otherTimesId, title: 'Other times' } },
        ],
      },
    },
  };
}

/** After a tap held a paid service's time: the link to its Stripe Checkout page. */
export function payLink(input: {
  serviceName: string;
  start: Date;
  holdUntil: Date | null;
  zone: string;
  checkoutUrl: string;
}): Content {
  const held = input.holdUntil ? ` Pay by ${formatClock(input.holdUntil, input.zone)} to keep it.` : '';
  return {
    type: 'interactive',
    interactive: {
      type: 'cta_url',
      body: { text: clip(`${input.serviceName}, ${when(input.start, input.zone)}.${held}`, LIMITS.body) },
      action: { name: 'cta_url', parameters: { display_text: 'Pay now', url: input.checkoutUrl } },
    },
  };
}

export const text = (body: string): Content => ({ type: 'text', text: body });

export const movedText = (serviceName: string, start: Date, zone: string) =>
  text(`Your ${serviceName} is moved to ${when(start, zone)}.`);

export function confirmedText(
  serviceName: string,
  start: Date,
  zone: string,
  manageUrl: string | null,
): Content {
  const manage = manageUrl ? ` To change or cancel it: ${manageUrl}` : '';
  return text(`Booked: ${serviceName}, ${when(start, zone)}.${manage}`);
}

export const takenText = () => text('Sorry, that time was just taken. Here are the times still free:');
export const expiredOfferText = () => text('That list has expired. Here are the times free now:');
export const cannotPayText = () =>
  text('Sorry, payments cannot be taken right now, so the time is not held. Please try again later.');
export const noTimesText = () => text('Sorry, no times are free in those days any more.');
export const cancelledText = (serviceName: string, start: Date, zone: string) =>
  text(`Your ${serviceName} on ${when(start, zone)} is cancelled.`);
export const attendanceText = (serviceName: string, start: Date, zone: string) =>
  text(`Thank you, we will see you on ${when(start, zone)} for your ${serviceName}.`);
export const noLongerActiveText = (status: string) =>
  text(`That booking is ${status.replace('_', ' ')}: there is nothing to change any more.`);
