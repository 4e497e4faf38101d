'use client';
/**
 * The dashboard's one way to run a mutation: on success it refreshes the named queries, shows a
 * message in the view's feedback area and runs `onSuccess`; on failure it shows the error there.
 * It takes tRPC's `mutationOptions()` as they are and returns TanStack Query's mutation, so
 * `mutate` / `mutateAsync` / `isPending` work as usual (dialogs await `mutateAsync`).
 *
 *   const feedback = useFeedback();
 *   const confirm = useAction(trpc.bookings.confirm.mutationOptions(), {
 *     feedback,
 *     success: (b) => `Booking for ${b.customer.name} confirmed`,
 *     invalidate: [trpc.bookings.pathKey()],
 *   });
 */
import { type QueryKey, type UseMutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Feedback } from '@/app/_components/ui';

export interface ActionSettings<TData, TVariables> {
  feedback?: Feedback;
  success?: string | ((data: TData, variables: TVariables) => string);
  /** Query keys (or key prefixes such as `trpc.bookings.pathKey()`) to refetch after success. */
  invalidate?: QueryKey[];
  onSuccess?: (data: TData, variables: TVariables) => void;
}

export function useAction<TData, TError, TVariables, TOnMutateResult>(
  options: UseMutationOptions<TData, TError, TVariables, TOnMutateResult>,
  { feedback, success, invalidate = [], onSuccess }: ActionSettings<TData, TVariables>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    onMutate: (variables, context) => {
      feedback?.clear();
      return options.onMutate?.(variables, context) as TOnMutateResult | Promise<TOnMutateResult>;
    },
    onSuccess: async (data, variables, onMutateResult, context) => {
      await options.onSuccess?.(data, variables, onMutateResult, context);
      if (success) feedback?.success(typeof success === 'string' ? success : success(data, variables));
      onSuccess?.(data, variables);
      // Not awaited: the mutation counts as done once it succeeded; lists refresh behind it.
      for (const queryKey of invalidate) void queryClient.invalidateQueries({ queryKey });
    },
    onError: async (error, variables, onMutateResult, context) => {
      await options.onError?.(error, variables, onMutateResult, context);
      feedback?.error(error);
    },
  });
}
