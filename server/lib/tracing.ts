// OpenTelemetry traces (docs/operations.md "Metrics and tracing"): a span per REST request, and the delivery
// attempts it caused as spans of the same trace. Attempts run later (worker or Inngest), so the
// request's W3C trace context is stored on each delivery (`traceparent`) and an attempt's span is
// started under it. Without a registered provider (OTEL_EXPORTER_OTLP_ENDPOINT unset) every call
// here is the API's no-op: no span, no stored context.
import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = () => trace.getTracer('switchboard');

/** The active span's context as a `traceparent` header value, or null when nothing is traced. */
export function currentTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

async function inSpan<T>(span: Span, run: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await run(span);
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

/** A REST request's span (renamed to its route template once matched), active while it runs. */
export function withRequestSpan<T>(method: string, run: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(`${method} /api/v1`, { kind: SpanKind.SERVER }, (span) =>
    inSpan(span, run),
  );
}

/** A delivery attempt's span, a child of the request that caused the delivery when it was traced. */
export function withAttemptSpan<T>(
  traceparent: string | null | undefined,
  attributes: Record<string, string | number>,
  run: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = traceparent ? propagation.extract(context.active(), { traceparent }) : context.active();
  return tracer().startActiveSpan('webhook attempt', { kind: SpanKind.CLIENT, attributes }, parent, (span) =>
    inSpan(span, run),
  );
}
