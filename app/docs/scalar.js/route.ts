import { scalarBundle } from '../scalar-bundle';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The renderer's script; its URL carries the version, so it may be cached for long. */
export async function GET(): Promise<Response> {
  const { script } = await scalarBundle();
  return new Response(new Uint8Array(script), {
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
    },
  });
}
