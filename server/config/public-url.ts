// The service's public base URL, for links and addresses it hands out (one-time links, the inbound
// Stripe webhook URL): AUTH_URL, else what the launcher gave next-auth, else this server on localhost.
import { settings } from './settings';

/** e.g. `https://switchboard.example.com` (no trailing slash). */
export function publicBaseUrl(): string {
  const base = settings().AUTH_URL ?? process.env.NEXTAUTH_URL ?? `http://localhost:${settings().PORT}`;
  return base.replace(/\/+$/, '');
}
