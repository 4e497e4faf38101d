// What the two pages (app/book/[id], app/b/[token]) read on the server: the same answers as their JSON
// twins, found the same way (a public active service; a live manage token), and who may frame them.
import type { z } from 'zod';
import { db } from '@/server/db/client';
import { operationContext, SYSTEM_ACTOR } from '@/server/domain/context';
import { findManagedBooking, presentManagedBooking } from './manage-booking';
import { findPublicService, presentPublicService } from './public-service';
import type { ManagedBooking, PublicService } from './schemas';

/** The booking page of a service: null (404) unless it is public and active. */
export async function bookingPageOf(serviceId: string): Promise<z.input<typeof PublicService> | null> {
  const found = await findPublicService(serviceId);
  if (!found) return null;
  return presentPublicService(operationContext(found.tenantId, SYSTEM_ACTOR), found.service);
}

/** The manage page of a token: null (404) for an unknown, malformed or expired one. */
export async function managePageOf(token: string): Promise<ManagedBooking | null> {
  const found = await findManagedBooking(token);
  if (!found) return null;
  return presentManagedBooking(operationContext(found.tenantId, SYSTEM_ACTOR), found.booking);
}

const PAGE = /^\/(book|b)\/([^/]+)\/?$/;

/**
 * The origins allowed to frame a page (its tenant's `booking_page.frame_origins`), or null when the
 * path is not one of the two pages. A page that names nothing (it will answer 404) may be framed by
 * no one.
 */
export async function frameOriginsOfPage(pathname: string): Promise<string[] | null> {
  const match = PAGE.exec(pathname);
  if (!match) return null;
  let segment: string;
  try {
    segment = decodeURIComponent(match[2]);
  } catch {
    return [];
  }
  const found = match[1] === 'book' ? await findPublicService(segment) : await findManagedBooking(segment);
  if (!found) return [];
  const tenant = await db().tenant.findUnique({
    where: { id: found.tenantId },
    select: { bookingFrameOrigins: true },
  });
  return tenant?.bookingFrameOrigins ?? [];
}
