// The tenant's own settings (GET|PATCH /tenant): its name and who may frame its booking pages.
import { z } from 'zod';

/** At most this many origins may frame a tenant's pages (a website, a shop, a staging copy…). */
export const MAX_FRAME_ORIGINS = 20;

/**
 * `https://host[:port]`, exactly as a browser writes the origin (lower-case host, no default port, no
 * path): it goes verbatim into the pages' Content-Security-Policy `frame-ancestors`.
 */
export const FrameOrigin = z
  .string()
  .max(255)
  .superRefine((value, ctx) => {
    const problem = originProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ example: 'https://www.example-clinic.com' });

function originProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Not an origin: write https://host or https://host:port';
  }
  if (url.protocol !== 'https:') return 'Must be an https:// origin';
  if (url.username || url.password) return 'An origin has no user name or password';
  if (url.origin !== value) return `Not an origin as browsers write it: ${url.origin}`;
  // A CSP source expression allows wildcards (`*.example.com`): an origin here names one site.
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9-]+(\.[a-z0-9-]+)*)$/.test(url.hostname)) return 'Not a single host';
  return null;
}

export const BookingPageSettings = z.object({
  frame_origins: z.array(z.string()).meta({
    description:
      'The origins that may show the booking and manage pages in a frame (an iframe on the business’s own ' +
      'site): the pages’ Content-Security-Policy frame-ancestors names exactly these; empty, no site may frame ' +
      'them',
  }),
});

export const Tenant = z
  .object({
    id: z.string().meta({ format: 'uuid' }),
    name: z.string(),
    booking_page: BookingPageSettings,
  })
  .meta({ id: 'Tenant' });

export const UpdateTenantInput = z.object({
  booking_page: z
    .object({
      frame_origins: z
        .array(FrameOrigin)
        .max(MAX_FRAME_ORIGINS)
        .meta({ description: `Each https://host[:port]; at most ${MAX_FRAME_ORIGINS}; [] forbids framing` }),
    })
    .optional(),
});
export type UpdateTenantInput = z.output<typeof UpdateTenantInput>;
