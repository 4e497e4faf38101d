'use client';
import type { inferRouterOutputs } from '@trpc/server';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '@/server/trpc/root';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** What each procedure answers (the REST body of its route), for props typed by a procedure's answer. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
