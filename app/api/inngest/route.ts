import { serve } from 'inngest/next';
import type { NextRequest } from 'next/server';
import { problemResponse } from '@/server/http/problem';
import { Errors } from '@/server/lib/errors';
import { newRequestId } from '@/server/lib/ids';
import { inngest } from '@/server/runtime/inngest/client';
import { inngestFunctions } from '@/server/runtime/inngest/functions';

// The background runtime's Inngest functions (DELIVERY_ENGINE=inngest,
// server/runtime/inngest/functions.ts), invoked by Inngest over HTTP. The SDK checks the signature of
// every call that runs a function. A PUT, though, may ask for an
// "out-of-band" sync, which the SDK performs unsigned, registering the URL the request itself names
// (its Host) with Inngest: outside dev mode only the signed in-band sync Inngest Cloud sends is let
// through (docs/deploying.md); the SDK verifies its signature.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handlers = serve({ client: inngest, functions: inngestFunctions });

export const { GET, POST } = handlers;

export async function PUT(request: NextRequest, context: unknown) {
  const inBand = request.headers.get('x-inngest-sync-kind') === 'in_band';
  if (inngest.mode === 'cloud' && (!inBand || !request.headers.get('x-inngest-signature'))) {
    const refusal = Errors.unauthenticated(
      'Sync this app from Inngest Cloud (a signed in-band sync); unsigned syncs are refused outside dev mode.',
    );
    return problemResponse(refusal, newRequestId());
  }
  return handlers.PUT(request, context);
}
