'use client';
import { signIn } from 'next-auth/react';
import { type FormEvent, useState } from 'react';
import { Button, Field, Input, Notice } from '@/app/_components/ui';
import { safeCallbackPath } from '@/server/trpc/callback-url';

const MESSAGES: Record<string, string> = {
  CredentialsSignin: 'Wrong email or password.',
  rate_limited: 'Too many failed attempts. Wait a few minutes and try again.',
};

/**
 * Where the proxy was sending the visitor (a path of this site only: server/trpc/callback-url.ts),
 * else the home (the overview; agents go on to bookings).
 */
function returnPath(): string {
  const origin = window.location.origin;
  const path = safeCallbackPath(new URLSearchParams(window.location.search).get('callbackUrl'), origin);
  return new URL(path, origin).pathname === '/login' ? '/' : path;
}

export function LoginForm() {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn('credentials', {
        email: String(form.get('email') ?? ''),
        password: String(form.get('password') ?? ''),
        redirect: false,
      });
      if (!result || result.error || !result.ok) {
        setError(MESSAGES[result?.error ?? ''] ?? 'Sign-in failed. Try again.');
        return;
      }
      // A full navigation so the server layout reads the new session cookie.
      window.location.assign(returnPath());
    } catch {
      setError('Cannot reach the server. Check your connection and try again.');
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <Field label="Email" id="email">
        <Input name="email" type="email" autoComplete="username" required />
      </Field>
      <Field label="Password" id="password">
        <Input name="password" type="password" autoComplete="current-password" required />
      </Field>
      {error && (
        <Notice tone="error" role="alert">
          {error}
        </Notice>
      )}
      <Button type="submit" loading={pending} className="w-full py-2">
        Sign in
      </Button>
    </form>
  );
}
