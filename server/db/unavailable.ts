// Whether an error means the database cannot be reached right now (refused, dropped, shutting
// down, out of connections), as opposed to a bug. Transports answer those with 503
// service_unavailable and Retry-After instead of a 500 (docs/decisions.md "Security"); the pools reconnect by
// themselves once PostgreSQL is back.

const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'TlsConnectionError',
]);
/** admin/crash shutdown, cannot connect now, connection exceptions, too many connections. */
const PG_CODES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);
const MESSAGES = new RegExp(
  [
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'Connection is closed',
    'the database system is (starting up|shutting down)',
    'terminating connection due to administrator command',
  ].join('|'),
  'i',
);

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || error === null || typeof error !== 'object') return false;
  const e = error as {
    code?: unknown;
    message?: unknown;
    kind?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown; code?: unknown } } };
  };
  if (
    typeof e.code === 'string' &&
    (PRISMA_CODES.has(e.code) || PG_CODES.has(e.code) || SOCKET_CODES.has(e.code))
  )
    return true;
  if (typeof e.kind === 'string' && ADAPTER_KINDS.has(e.kind)) return true;
  const adapter = e.meta?.driverAdapterError?.cause;
  if (adapter) {
    if (typeof adapter.kind === 'string' && ADAPTER_KINDS.has(adapter.kind)) return true;
    const pgCode = adapter.originalCode ?? adapter.code;
    if (typeof pgCode === 'string' && PG_CODES.has(pgCode)) return true;
  }
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  if (error instanceof AggregateError)
    return error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
  return isDatabaseUnavailable(e.cause, depth + 1);
}
