'use client';
/**
 * Delivery attempts per hour (or day) as two recharts panels: succeeded/failed stacked bars, and
 * p50/p95 latency lines. Beside them, in text: the totals, and the non-empty buckets as a table
 * (for screen readers, and a summary anyone can read exactly). The drawings are hidden from screen
 * readers and so take no keyboard focus either (recharts' accessibility layer off). Sized by its
 * container, so it reads at 375 px too.
 */
import { useId } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { Table, TBody, Td, THead, Tr } from '@/app/_components/ui';

export interface StatsBucket {
  start: string;
  succeeded: number;
  failed: number;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
}
export interface DeliveryStatsData {
  buckets: StatsBucket[];
  totals: { succeeded: number; failed: number; pending: number };
}

const OK = '#1d7a46';
const FAILED = '#b42b26';
const P50 = '#2f5bea';
const P95 = '#8a5c00';

function label(iso: string, bucket: 'hour' | 'day') {
  const date = new Date(iso);
  return bucket === 'hour'
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

const axis = { fontSize: 11, fill: '#5b6570' };

export function DeliveryChart({
  data,
  bucket = 'hour',
  caption,
}: {
  data: DeliveryStatsData;
  bucket?: 'hour' | 'day';
  /** What the numbers are, e.g. "Attempts in the last 24 hours". */
  caption: string;
}) {
  const id = useId();
  const rows = data.buckets.map((b) => ({ ...b, label: label(b.start, bucket) }));
  const busy = data.buckets.filter((b) => b.succeeded + b.failed > 0);
  const { succeeded, failed, pending } = data.totals;
  const total = succeeded + failed;
  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid="delivery-chart">
      <p className="text-sm" data-testid="chart-summary" aria-describedby={`${id}-caption`}>
        <span id={`${id}-caption`} className="text-muted">
          {caption}:{' '}
        </span>
        <strong className="text-ok">{succeeded} succeeded</strong> ·{' '}
        <strong className="text-error">{failed} failed</strong> · {pending} pending
        {total > 0 && (
          <span className="text-muted"> ({Math.round((succeeded / total) * 100)} % succeeded)</span>
        )}
      </p>
      <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-2">
        <figure className="min-w-0" aria-label={`${caption}: succeeded and failed attempts per ${bucket}`}>
          <figcaption className="mb-1 text-sm font-semibold">Attempts per {bucket}</figcaption>
          <div className="h-52 w-full" aria-hidden="true">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart
                data={rows}
                margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
                accessibilityLayer={false}
              >
                <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#d9dee4" />
                <XAxis dataKey="label" tick={axis} interval="preserveStartEnd" minTickGap={16} />
                <YAxis tick={axis} allowDecimals={false} width={40} />
                <Tooltip />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                <Bar dataKey="succeeded" name="Succeeded" stackId="a" fill={OK} isAnimationActive={false} />
                <Bar dataKey="failed" name="Failed" stackId="a" fill={FAILED} isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </figure>
        <figure className="min-w-0" aria-label={`${caption}: latency per ${bucket}`}>
          <figcaption className="mb-1 text-sm font-semibold">Latency (ms)</figcaption>
          <div className="h-52 w-full" aria-hidden="true">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart
                data={rows}
                margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
                accessibilityLayer={false}
              >
                <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#d9dee4" />
                <XAxis dataKey="label" tick={axis} interval="preserveStartEnd" minTickGap={16} />
                <YAxis tick={axis} width={48} />
                <Tooltip />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                <Line
                  dataKey="latency_p50_ms"
                  name="p50"
                  stroke={P50}
                  dot={{ r: 2.5, fill: P50 }}
                  connectNulls
                  isAnimationActive={false}
                />
                <Line
                  dataKey="latency_p95_ms"
                  name="p95"
                  stroke={P95}
                  dot={{ r: 2.5, fill: P95 }}
                  connectNulls
                  isAnimationActive={false}
                />
              </LineChart>
            </ResponsiveContainer>
          </div>
        </figure>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-muted">
          Show as a table ({busy.length} {bucket}
          {busy.length === 1 ? '' : 's'} with attempts)
        </summary>
        <div className="mt-2">
          <Table aria-label={`${caption} by ${bucket}`} className="min-w-[28rem]">
            <THead
              columns={[bucket === 'hour' ? 'Hour' : 'Day', 'Succeeded', 'Failed', 'p50 ms', 'p95 ms']}
            />
            <TBody>
              {busy.map((b) => (
                <Tr key={b.start}>
                  <Td>
                    <time dateTime={b.start}>{new Date(b.start).toLocaleString()}</time>
                  </Td>
                  <Td>{b.succeeded}</Td>
                  <Td>{b.failed}</Td>
                  <Td>{b.latency_p50_ms ?? '—'}</Td>
                  <Td>{b.latency_p95_ms ?? '—'}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </div>
      </details>
    </div>
  );
}
