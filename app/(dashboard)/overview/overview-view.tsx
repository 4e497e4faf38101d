'use client';
/**
 * The dashboard's home for admins: the tenant's delivery attempts of the last 24 hours (chart and
 * latency), endpoints that are failing or disabled, the hand-off queue and today's bookings.
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo } from 'react';
import { DeliveryChart } from '@/app/_components/delivery-chart';
import { Loading, Time } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Badge,
  Card,
  CardBody,
  CardHeader,
  EmptyState,
  ErrorNotice,
  PageHeader,
  StatusBadge,
} from '@/app/_components/ui';

function today() {
  const start = new Date();
  start.setHours(0, 0, 0, 0);
  const end = new Date(start);
  end.setDate(end.getDate() + 1);
  return { dayStart: start.toISOString(), dayEnd: end.toISOString() };
}

function Figure({
  label,
  value,
  href,
  testId,
}: {
  label: string;
  value: number;
  href: string;
  testId: string;
}) {
  return (
    <Card>
      <CardBody>
        <Link href={href} className="block text-fg no-underline hover:underline" data-testid={testId}>
          <span className="block text-2xl font-semibold tabular-nums sm:text-3xl">{value}</span>
          <span className="text-xs text-muted sm:text-sm">{label}</span>
        </Link>
      </CardBody>
    </Card>
  );
}

export function OverviewView() {
  const trpc = useTRPC();
  const day = useMemo(today, []);
  const overview = useQuery({ ...trpc.overview.get.queryOptions(day), refetchInterval: 30_000 });

  return (
    <>
      <PageHeader title="Overview" description="Deliveries, endpoints and today’s work at a glance." />
      {overview.isPending ? (
        <Loading />
      ) : overview.error ? (
        <ErrorNotice error={overview.error} />
      ) : (
        <div className="flex min-w-0 flex-col gap-6">
          <div className="grid grid-cols-3 gap-2 sm:gap-4">
            <Figure
              label="Bookings today"
              value={overview.data.bookings_today}
              href="/bookings"
              testId="bookings-today"
            />
            <Figure
              label="Waiting for a person"
              value={overview.data.handoff_queue}
              href="/conversations"
              testId="handoff-queue"
            />
            <Figure
              label="Endpoints needing attention"
              value={overview.data.endpoints.length}
              href="/settings/webhooks"
              testId="endpoints-attention"
            />
          </div>

          <Card aria-labelledby="overview-deliveries">
            <CardHeader
              titleId="overview-deliveries"
              title="Webhook deliveries"
              description="Attempts to every endpoint of this tenant, per hour"
              actions={<Link href="/settings/webhooks?view=failed">Failed deliveries →</Link>}
            />
            <CardBody>
              <DeliveryChart data={overview.data.deliveries} caption="Attempts in the last 24 hours" />
            </CardBody>
          </Card>

          <Card aria-labelledby="overview-endpoints">
            <CardHeader
              titleId="overview-endpoints"
              title="Endpoints needing attention"
              description="Endpoints whose newest attempt failed, and disabled endpoints"
            />
            <CardBody>
              {overview.data.endpoints.length === 0 ? (
                <EmptyState>Every endpoint’s newest attempt succeeded.</EmptyState>
              ) : (
                <ul className="flex flex-col divide-y divide-border" aria-label="Endpoints needing attention">
                  {overview.data.endpoints.map((e) => (
                    <li key={e.id} className="flex flex-col gap-1 py-2" data-testid={`attention-${e.id}`}>
                      <span className="flex flex-wrap items-center gap-2">
                        {e.state === 'failing' ? (
                          <Badge tone="error">failing</Badge>
                        ) : (
                          <StatusBadge status="disabled" />
                        )}
                        <Link href={`/settings/webhooks/${e.id}`} className="break-all">
                          {e.url}
                        </Link>
                      </span>
                      <span className="text-sm text-muted">
                        {e.disabled_reason && <>Disabled: {e.disabled_reason}. </>}
                        {e.consecutive_failures > 0 && (
                          <>
                            {e.consecutive_failures}
                            {e.streak_capped ? '+' : ''} failed attempts in a row.{' '}
                          </>
                        )}
                        Last success: <Time value={e.last_success_at} />
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </CardBody>
          </Card>

          <Card aria-labelledby="overview-bookings">
            <CardHeader
              titleId="overview-bookings"
              title="Next bookings today"
              actions={<Link href="/bookings">All bookings →</Link>}
            />
            <CardBody>
              {overview.data.next_bookings.length === 0 ? (
                <EmptyState>No more bookings today.</EmptyState>
              ) : (
                <ul className="flex flex-col divide-y divide-border">
                  {overview.data.next_bookings.map((b) => (
                    <li key={b.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                      <time dateTime={b.start_at} className="font-semibold tabular-nums">
                        {new Date(b.start_at).toLocaleTimeString(undefined, {
                          hour: '2-digit',
                          minute: '2-digit',
                        })}
                      </time>
                      <span>{b.customer_name}</span>
                      {b.service && <span className="text-muted">{b.service}</span>}
                      <StatusBadge status={b.status} />
                    </li>
                  ))}
                </ul>
              )}
            </CardBody>
          </Card>
        </div>
      )}
    </>
  );
}
