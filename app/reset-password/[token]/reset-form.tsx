'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Loading } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import { Button, ErrorNotice, errorMessage, Field, Input, Notice } from '@/app/_components/ui';
import { NoLongerValid } from '../../invite/[token]/invite-form';

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
    const password = String(form.get('password') ?? '');
    if (password !== String(form.get('confirm') ?? '')) {
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
      <Field label="New password" id="password" hint="At least 8 characters.">
        <Input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={1024}
        />
      </Field>
      <Field label="Repeat the new password" id="confirm">
        <Input
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={1024}
        />
      </Field>
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
