'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { signIn, useSession } from 'next-auth/react';
import { type FormEvent, useState } from 'react';
import { Loading } from '@/app/_components/feedback';
import { NewPasswordFields, NoLongerValid, newPasswordOf } from '@/app/_components/one-time-link';
import { useTRPC } from '@/app/_components/trpc';
import { Button, ErrorNotice, errorMessage, Field, Input, Notice } from '@/app/_components/ui';

/**
 * A new person sets their name and password; an existing user enters theirs. Either way the
 * membership is added, then they are signed in (next-auth, as on /login) with this tenant chosen.
 */
export function InviteForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const { update } = useSession();
  const invitation = useQuery(trpc.links.invitation.queryOptions({ token }, { retry: false }));
  const accept = useMutation(trpc.links.acceptInvitation.mutationOptions());
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  if (invitation.isPending) return <Loading />;
  if (invitation.error) return <ErrorNotice error={invitation.error} />;
  const info = invitation.data;
  if (!info.valid) return <NoLongerValid what="invitation" />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!info.valid) return;
    const form = new FormData(event.currentTarget);
    const password = info.existing_user ? String(form.get('password') ?? '') : newPasswordOf(form);
    if (password === null) {
      setError('The two passwords differ.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      const joined = await accept.mutateAsync({
        token,
        password,
        ...(info.existing_user ? {} : { name: String(form.get('name') ?? '') }),
      });
      const result = await signIn('credentials', { email: joined.email, password, redirect: false });
      if (!result?.ok || result.error) {
        window.location.assign('/login');
        return;
      }
      await update({ tenantId: joined.tenant_id });
      // A full navigation so the server layout reads the new session cookie.
      window.location.assign('/bookings');
    } catch (caught) {
      setError(errorMessage(caught));
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <p className="text-muted">
        You are invited to <strong className="text-fg">{info.tenant_name}</strong> as an{' '}
        <strong className="text-fg">{info.role}</strong>.
      </p>
      <Field label="Email" id="email">
        <Input name="email" type="email" value={info.email} readOnly autoComplete="username" />
      </Field>
      {info.existing_user ? (
        <Field label="Your password" id="password" hint="You already have an account: sign in to join.">
          <Input name="password" type="password" autoComplete="current-password" required />
        </Field>
      ) : (
        <>
          <Field label="Your name" id="name">
            <Input name="name" autoComplete="name" required maxLength={200} />
          </Field>
          <NewPasswordFields label="Choose a password" repeatLabel="Repeat the password" />
        </>
      )}
      {error && (
        <Notice tone="error" role="alert">
          {error}
        </Notice>
      )}
      <Button type="submit" loading={pending} className="w-full py-2">
        {info.existing_user ? 'Sign in and join' : 'Join the team'}
      </Button>
    </form>
  );
}
