/**
 * The one error type of the API. Domain code throws `ApiError`s (usually through the helpers
 * below); the route wrapper turns each into an RFC 9457 problem+json response. Anything else
 * thrown becomes a 500 `internal_error` that reveals nothing but the request id.
 */
export interface FieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
  }
}

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

const BEARER = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

export const Errors = {
  notFound: (what = 'Resource') => new ApiError(404, 'not_found', `${what} not found`),
  routeNotFound: () => new ApiError(404, 'not_found', 'No such route'),
  methodNotAllowed: (allow: string[]) =>
    new ApiError(405, 'method_not_allowed', 'Method not allowed on this route', {
      headers: { Allow: allow.join(', ') },
    }),
  tenantHeaderMissing: () => new ApiError(400, 'tenant_header_missing', 'The X-Tenant-ID header is required'),
  tenantHeaderInvalid: () =>
    new ApiError(400, 'tenant_header_invalid', 'The X-Tenant-ID header must be a UUID'),
  unauthenticated: (detail = 'A valid bearer credential is required') =>
    new ApiError(401, 'unauthenticated', detail, { headers: BEARER }),
  tokenExpired: (detail = 'The access token has expired') =>
    new ApiError(401, 'token_expired', detail, { headers: BEARER }),
  invalidCredentials: () => new ApiError(401, 'invalid_credentials', 'Wrong email or password'),
  refreshTokenReused: () =>
    new ApiError(
      401,
      'refresh_token_reused',
      'This refresh token was already used; the whole session has been revoked',
      {
        headers: BEARER,
      },
    ),
  tenantMismatch: () =>
    new ApiError(403, 'tenant_mismatch', 'The credential does not belong to the tenant in X-Tenant-ID'),
  forbidden: (detail = 'Your role does not allow this action') => new ApiError(403, 'forbidden', detail),
  invalidJson: (detail = 'The request body is not valid JSON') => new ApiError(400, 'invalid_json', detail),
  unsupportedMediaType: () =>
    new ApiError(
      415,
      'unsupported_media_type',
      'Request bodies must be sent as Content-Type: application/json',
    ),
  payloadTooLarge: (limit: number) =>
    new ApiError(413, 'payload_too_large', `The request body is larger than ${limit} bytes`),
  validation: (errors: FieldError[]) =>
    new ApiError(422, 'validation_failed', 'The request is not valid; see errors for each problem', {
      errors,
    }),
  invalidTransition: (detail: string) => new ApiError(409, 'invalid_transition', detail),
  conflict: (code: string, detail: string) => new ApiError(409, code, detail),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(429, 'rate_limited', 'Too many requests; retry later', {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    }),
  badRequest: (code: string, detail: string) => new ApiError(400, code, detail),
};
