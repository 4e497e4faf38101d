// The one error type of the service. Domain, auth, events and data code throw `AppError`s with a
// code from `ERROR_CODES`; they know nothing of HTTP. The transports map codes to their own
// answers in one place each: REST in server/http/problem.ts (through server/http/status.ts),
// tRPC in server/trpc/init.ts. Anything else thrown is an unexpected failure (500, logged).

export const ERROR_CODES = [
  // request shape (REST pipeline)
  'not_found',
  'method_not_allowed',
  'tenant_header_missing',
  'tenant_header_invalid',
  'tenant_required',
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'not_acceptable',
  'invalid_mcp_request',
  'validation_failed',
  'url_not_allowed',
  'channel_verification_failed',
  'outside_customer_service_window',
  'media_unavailable',
  'provider_verification_failed',
  'payment_provider_refused',
  'payment_provider_unavailable',
  'signature_verification_failed',
  // credentials and permissions
  'unauthenticated',
  'token_expired',
  'invalid_credentials',
  'refresh_token_reused',
  'tenant_mismatch',
  'forbidden',
  'invalid_signature',
  // conflicts with the current state
  'invalid_transition',
  'concurrent_update',
  'last_admin',
  'already_member',
  'idempotency_key_reused',
  'idempotency_key_in_use',
  'phone_number_id_taken',
  'endpoint_inactive',
  'endpoint_disabled',
  'payment_provider_missing',
  'slot_unavailable',
  'no_free_slots',
  'resource_in_use',
  'endpoint_limit_reached',
  'api_key_limit_reached',
  'too_many_holds',
  'too_late_to_change',
  'hold_limit_reached',
  'conversation_resolved',
  'handled_by_human',
  'assistant_session_limit_reached',
  // load and availability
  'rate_limited',
  'service_unavailable',
  'whatsapp_not_configured',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  path: string;
  message: string;
}

export interface ErrorDetails {
  /** One entry per invalid field (validation_failed, url_not_allowed). */
  errors?: FieldError[];
  /** When the caller may try again (rate_limited, service_unavailable). */
  retryAfterSeconds?: number;
  /** The methods a path does allow (method_not_allowed). */
  allow?: string[];
  /** This answer repeats a stored outcome (Idempotency-Key replay). */
  replayed?: boolean;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    detail: string,
    readonly details: ErrorDetails = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** The failures every layer raises, worded once. */
export const Errors = {
  notFound: (what = 'Resource') => new AppError('not_found', `${what} not found`),
  validation: (errors: FieldError[]) =>
    new AppError('validation_failed', 'The request is not valid; see errors for each problem', { errors }),
  invalidTransition: (detail: string) => new AppError('invalid_transition', detail),
  outsideWindow: (detail: string) => new AppError('outside_customer_service_window', detail),
  mediaUnavailable: (detail: string) => new AppError('media_unavailable', detail),
  conflict: (code: ErrorCode, detail: string) => new AppError(code, detail),
  unauthenticated: (detail = 'A valid bearer credential is required') =>
    new AppError('unauthenticated', detail),
  tokenExpired: (detail = 'The access token has expired') => new AppError('token_expired', detail),
  invalidCredentials: () => new AppError('invalid_credentials', 'Wrong email or password'),
  refreshTokenReused: () =>
    new AppError(
      'refresh_token_reused',
      'This refresh token was already used; the whole session has been revoked',
    ),
  tenantMismatch: () =>
    new AppError('tenant_mismatch', 'The credential does not belong to the tenant in X-Tenant-ID'),
  tenantRequired: (detail: string) => new AppError('tenant_required', detail),
  forbidden: (detail = 'Your role does not allow this action') => new AppError('forbidden', detail),
  handledByHuman: () =>
    new AppError(
      'handled_by_human',
      'A person of the business handles this conversation now: the assistant sends nothing in it',
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError('rate_limited', 'Too many requests; retry later', { retryAfterSeconds }),
  misconfigured: () =>
    new AppError(
      'service_unavailable',
      'The service is not configured to serve; its operator can see why at /api/health',
      {
        retryAfterSeconds: 60,
      },
    ),
  unavailable: () =>
    new AppError('service_unavailable', 'The database is unavailable right now; retry shortly', {
      retryAfterSeconds: 5,
    }),
};
