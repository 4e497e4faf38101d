// The one table from error code to HTTP status. Only the REST problem writer and the tRPC error
// middleware read it; a code missing here does not compile.
import type { ErrorCode } from '@/server/lib/errors';

export const HTTP_STATUS: Record<ErrorCode, number> = {
  not_found: 404,
  method_not_allowed: 405,
  tenant_header_missing: 400,
  tenant_header_invalid: 400,
  tenant_required: 400,
  invalid_json: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  validation_failed: 422,
  url_not_allowed: 422,
  channel_verification_failed: 422,
  outside_customer_service_window: 422,
  media_unavailable: 502,
  unauthenticated: 401,
  token_expired: 401,
  invalid_credentials: 401,
  refresh_token_reused: 401,
  tenant_mismatch: 403,
  forbidden: 403,
  invalid_signature: 401,
  invalid_transition: 409,
  concurrent_update: 409,
  last_admin: 409,
  already_member: 409,
  idempotency_key_reused: 409,
  idempotency_key_in_use: 409,
  phone_number_id_taken: 409,
  endpoint_inactive: 409,
  endpoint_disabled: 409,
  endpoint_limit_reached: 409,
  api_key_limit_reached: 409,
  rate_limited: 429,
  service_unavailable: 503,
  whatsapp_not_configured: 503,
};

export const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** 401 answers tell a bearer client that its token is the problem (RFC 6750). */
export const BEARER_CHALLENGE_CODES: ReadonlySet<ErrorCode> = new Set([
  'unauthenticated',
  'token_expired',
  'refresh_token_reused',
]);
