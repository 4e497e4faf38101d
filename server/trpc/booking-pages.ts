// What the booking pages' server components (app/book/[id], app/b/[token]) read, as the signed-in
// pages read server/trpc/membership.ts: the same answers as the public JSON, with no session.
export { bookingPageOf, managePageOf } from '@/server/domain/booking-page/pages';
