'use client';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { SessionProvider } from 'next-auth/react';
import { type ReactNode, useState } from 'react';
import type { AppRouter } from '@/server/trpc/root';
import { TRPCProvider } from './trpc';

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: toLoginWhenSignedOut }),
        mutationCache: new MutationCache({ onError: toLoginWhenSignedOut }),
        defaultOptions: {
          // Client errors (403, 404, 422…) do not get better by retrying.
          queries: {
            staleTime: 5_000,
            retry: (count, error) => count < 2 && !/^[4]/.test(String(httpStatus(error))),
          },
        },
      }),
  );
  const [trpcClient] = useState(() =>
    // The server takes at most 20 calls per batch (server/trpc/http-handler.ts).
    createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: '/api/trpc', maxItems: 20 })] }),
  );
  return (
    <SessionProvider refetchOnWindowFocus={false}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
        </TRPCProvider>
      </QueryClientProvider>
    </SessionProvider>
  );
}

/** An expired or revoked session: go back to sign-in rather than showing errors everywhere. */
function toLoginWhenSignedOut(error: unknown) {
  if (httpStatus(error) === 401)
    window.location.assign(`/login?callbackUrl=${encodeURIComponent(window.location.pathname)}`);
}

function httpStatus(error: unknown): number | undefined {
  return (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
}
