import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@/server/api/routes';
import { resetSettingsCache } from '@/server/config/settings';
import { apiSuite } from '../support/harness';

// "Bad input of any kind gets a clear 4xx and changes nothing; a 500 is a bug": every route,
// as an admin, with odd ids, odd query strings and bodies of every JSON shape.
beforeAll(() => {
  // Configured, so the inbound WhatsApp route judges its input (unconfigured it answers 503 by design).
  process.env.WHATSAPP_APP_SECRET = 'bad-input-app-secret';
  process.env.WHATSAPP_VERIFY_TOKEN = 'bad-input-verify-token';
  resetSettingsCache();
});
const { tenant } = apiSuite();

const ODD_IDS = ['x', 'bkg_', "'; drop table bookings; --", 'é🙂', '%00', 'a'.repeat(2000), '..%2F..%2Fetc'];
const ODD_QUERIES = [
  '?limit=0',
  '?limit=-1',
  '?limit=abc',
  '?limit=1e9',
  '?cursor=%%%',
  '?cursor=bm90LWFuLWlk',
  '?status=maybe',
  '?from=yesterday',
  '?to=2020-13-45T99:00:00Z',
];
const ODD_BODIES = [
  'null',
  '[]',
  '"text"',
  '42',
  'true',
  '{}',
  '{"a":{"b":{"c":[1,2,{"d":null}]}}}',
  JSON.stringify({ url: 123, events: 'x', amount: 'ten', start_at: {}, text: ['x'] }),
];

describe('every route with bad input', () => {
  it('answers 4xx, never 5xx', async () => {
    const api = tenant.admin;
    const problems: string[] = [];
    for (const route of routes) {
      const paths = route.path.includes('{')
        ? ODD_IDS.map((id) => route.path.replace(/\{\w+\}/g, encodeURIComponent(id)))
        : [route.path];
      for (const path of paths) {
        const attempts =
          route.method === 'GET' || route.method === 'DELETE'
            ? ODD_QUERIES.map((q) => ({ path: `${path}${q}`, rawBody: undefined }))
            : ODD_BODIES.map((b) => ({ path, rawBody: b }));
        for (const attempt of attempts) {
          const res = await api(route.method, attempt.path, {
            rawBody: attempt.rawBody,
            headers: attempt.rawBody === undefined ? {} : { 'Content-Type': 'application/json' },
          });
          if (res.status >= 500)
            problems.push(
              `${route.method} ${attempt.path} ${attempt.rawBody ?? ''} → ` +
                `${res.status} ${res.text.slice(0, 200)}`,
            );
        }
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
