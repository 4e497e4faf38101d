/** The frame of both booking pages: one column, phone first, the business's service on top. */
import type { ReactNode } from 'react';
import { formatMoney } from '@/app/_components/money';

/** An amount in minor units in its currency (the dashboard's formatting). */
export const money = formatMoney;

export function PageShell({ children }: { children: ReactNode }) {
  return <main className="mx-auto flex w-full max-w-2xl flex-col gap-4 px-4 py-6 sm:py-10">{children}</main>;
}

/** "30 min · €25.00" */
export function serviceFacts(service: {
  duration_minutes: number;
  price: { amount: number; currency: string } | null;
}): string {
  const parts = [`${service.duration_minutes} min`];
  if (service.price) parts.push(money(service.price.amount, service.price.currency));
  return parts.join(' · ');
}
