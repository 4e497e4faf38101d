import { serve } from 'inngest/next';
import { inngest } from '@/server/delivery/inngest/client';
import { inngestFunctions } from '@/server/delivery/inngest/functions';

// The Inngest engine's functions (DELIVERY_ENGINE=inngest), invoked by Inngest over HTTP.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, POST, PUT } = serve({ client: inngest, functions: inngestFunctions });
