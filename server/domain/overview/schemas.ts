import { z } from 'zod';

export const OverviewInput = z.object({
  /** The viewer's local day (the browser knows its time zone; the server does not). */
  dayStart: z.iso.datetime({ offset: true }),
  dayEnd: z.iso.datetime({ offset: true }),
});
