// The booking page's two limits (docs/decisions.md "The booking page"), beside the per-second limit
// every public route has (server/http/api-rate-limit.ts):
// - a client address makes at most PUBLIC_BOOKINGS_PER_HOUR bookings an hour (10), counted in
//   PostgreSQL so every instance shares it: a point is taken before the booking is placed (parallel
//   requests cannot pass the limit together) and given back when no booking was made;
// - a phone holds at most PENDING_PER_PHONE pending bookings of a tenant at once (409 too_many_holds),
//   counted in the booking's own transaction under a lock on that phone, so two requests cannot both
//   see one pending booking and make a third.
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { settings } from '@/server/config/settings';
import { lockKey } from '@/server/db/advisory-lock';
import { pgPoolWithoutSessionState } from '@/server/db/pool';
import type { TenantTx } from '@/server/db/tenant-scope';
import type { UnitOfWork } from '@/server/db/unit-of-work';
import { AppError } from '@/server/lib/errors';

export const PENDING_PER_PHONE = 2;
const HOUR_SECONDS = 3600;

const holder = globalThis as unknown as {
  __switchboardBookingPageLimiter?: { points: number; limiter: RateLimiterPostgres };
};

function limiter(points: number): RateLimiterPostgres {
  if (holder.__switchboardBookingPageLimiter?.points !== points) {
    holder.__switchboardBookingPageLimiter = {
      points,
      limiter: new RateLimiterPostgres({
        storeClient: pgPoolWithoutSessionState(),
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        keyPrefix: `booking_page_address_${points}`,
        points,
        duration: HOUR_SECONDS,
      }),
    };
  }
  return holder.__switchboardBookingPageLimiter.limiter;
}

/**
 * Runs `book` as one of the address's bookings this hour: 429 rate_limited (with Retry-After) when it
 * has made its share, and the point back when `book` makes no booking (a refusal or a failure).
 */
export async function asBookingOfAddress<T>(address: string, book: () => Promise<T>): Promise<T> {
  const points = settings().PUBLIC_BOOKINGS_PER_HOUR;
  if (points === 0) return book();
  const limit = limiter(points);
  try {
    await limit.consume(address);
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      throw new AppError('rate_limited', `At most ${points} bookings an hour from one address`, {
        retryAfterSeconds: Math.ceil(error.msBeforeNext / 1000),
      });
    }
    throw error;
  }
  try {
    return await book();
  } catch (error) {
    await limit.reward(address, 1).catch(() => {});
    throw error;
  }
}

const tooManyHolds = () =>
  new AppError(
    'too_many_holds',
    `This phone already holds ${PENDING_PER_PHONE} pending bookings here: pay, confirm or cancel one first`,
  );

/** The phone's pending bookings that still hold a slot (a hold that has just ended is about to expire). */
function pendingOf(db: Pick<TenantTx, 'booking'>, phone: string): Promise<number> {
  return db.booking.count({
    where: {
      customerPhone: phone,
      status: 'pending',
      OR: [{ holdExpiresAt: null }, { holdExpiresAt: { gt: new Date() } }],
    },
  });
}

/** A first look, before Stripe is asked for a session: refuses early what the locked check would. */
export async function assertPhoneMayHold(db: Pick<TenantTx, 'booking'>, phone: string): Promise<void> {
  if ((await pendingOf(db, phone)) >= PENDING_PER_PHONE) throw tooManyHolds();
}

/** In the booking's transaction, before its row is written: the count that decides. */
export async function checkPhoneMayHold(tx: UnitOfWork, phone: string): Promise<void> {
  await lockKey(tx, `booking-page-phone:${tx.tenantId}:${phone}`);
  if ((await pendingOf(await tx.orm(), phone)) >= PENDING_PER_PHONE) throw tooManyHolds();
}
