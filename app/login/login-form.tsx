'use client';
import { signIn } from 'next-auth/react';
import { type FormEvent, useState } from 'react';

const MESSAGES: Record<string, string> = {
  CredentialsSignin: 'Wrong email or password.',
  rate_limited: 'Too many failed attempts. Wait a few minutes and try again.',
};

/** Where the proxy was sending the visitor (same-origin paths only), else the bookings list. */
function returnPath(): string {
  const raw = new URLSearchParams(window.location.search).get('callbackUrl');
  if (!raw) return '/bookings';
  try {
    const url = new URL(raw, window.location.origin);
    return url.origin === window.location.origin && url.pathname !== '/login'
      ? `${url.pathname}${url.search}`
      : '/bookings';
  } catch {
    return '/bookings';
  }
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
    <form onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      {error && (
        <p className="note note-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
