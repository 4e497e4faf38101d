'use client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DeliveryChart } from '@/app/_components/delivery-chart';
import { Loading } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import { Card, CardBody, CardHeader, ErrorNotice, Select } from '@/app/_components/ui';

const RANGES = {
  day: { bucket: 'hour', caption: 'Attempts in the last 24 hours' },
  month: { bucket: 'day', caption: 'Attempts in the last 30 days' },
} as const;

/** The endpoint's attempts (GET /webhooks/{id}/stats): 24 hours by hour, or 30 days by day. */
export function EndpointChart({ id }: { id: string }) {
  const trpc = useTRPC();
  const [range, setRange] = useState<keyof typeof RANGES>('day');
  const { bucket, caption } = RANGES[range];
  const stats = useQuery({
    ...trpc.webhooks.getWebhookStats.queryOptions({ id, bucket }),
    refetchInterval: 30_000,
  });
  return (
    <Card className="mb-6" aria-labelledby="endpoint-chart-title">
      <CardHeader
        titleId="endpoint-chart-title"
        title="Delivery attempts"
        actions={
          <Select
            inline
            aria-label="Chart range"
            value={range}
            onChange={(e) => setRange(e.target.value as keyof typeof RANGES)}
          >
            <option value="day">Last 24 hours</option>
            <option value="month">Last 30 days</option>
          </Select>
        }
      />
      <CardBody>
        {stats.isPending ? (
          <Loading />
        ) : stats.error ? (
          <ErrorNotice error={stats.error} />
        ) : (
          <DeliveryChart data={stats.data} bucket={bucket} caption={caption} />
        )}
      </CardBody>
    </Card>
  );
}
