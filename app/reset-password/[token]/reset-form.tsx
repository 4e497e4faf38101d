'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Loading } from '@/app/_components/feedback';
import { NewPasswordFields, NoLongerValid, newPasswordOf } from '@/app/_components/one-time-link';
import { useTRPC } from '@/app/_components/trpc';
import { Button, ErrorNotice, errorMessage, Field, Input, Notice } from '@/app/_components/ui';

/** Sets the new password; every session of the person ends, so they sign in again afterwards. */
export function ResetForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const reset = useQuery(trpc.links.passwordReset.queryOptions({ token }, { retry: false }));
  const complete = useMutation(trpc.links.completePasswordReset.mutationOptions());
  const [error, setError] = useState<string | null>(null);

  if (complete.isSuccess) {
    return (
      <Notice tone="success" role="status">
        Your password is changed and every other session has ended. <a href="/login">Sign in</a> with the new
        one.
      </Notice>
    );
  }
  if (reset.isPending) return <Loading />;
  if (reset.error) return <ErrorNotice error={reset.error} />;
  if (!reset.data.valid) return <NoLongerValid what="password reset" />;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = newPasswordOf(form);
    if (password === null) {
      setError('The two passwords differ.');
      return;
    }
    setError(null);
    complete.mutate({ token, password }, { onError: (caught) => setError(errorMessage(caught)) });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <Field label="Email" id="email">
        <Input name="email" type="email" value={reset.data.email} readOnly autoComplete="username" />
      </Field>
      <NewPasswordFields label="New password" repeatLabel="Repeat the new password" />
      {error && (
        <Notice tone="error" role="alert">
          {error}
        </Notice>
      )}
      <Button type="submit" loading={complete.isPending} className="w-full py-2">
        Set password
      </Button>
    </form>
  );
}
