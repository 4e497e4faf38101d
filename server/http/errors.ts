// Failures only the REST pipeline raises (routing, headers, bodies). They are `AppError`s like
// every other failure; the domain's own live in server/lib/errors.ts.
import { AppError } from '@/server/lib/errors';

export const HttpErrors = {
  routeNotFound: () => new AppError('not_found', 'No such route'),
  methodNotAllowed: (allow: string[]) =>
    new AppError('method_not_allowed', 'Method not allowed on this route', { allow }),
  tenantHeaderMissing: () => new AppError('tenant_header_missing', 'The X-Tenant-ID header is required'),
  tenantHeaderInvalid: () => new AppError('tenant_header_invalid', 'The X-Tenant-ID header must be a UUID'),
  invalidJson: (detail = 'The request body is not valid JSON') => new AppError('invalid_json', detail),
  unsupportedMediaType: () =>
    new AppError('unsupported_media_type', 'Request bodies must be sent as Content-Type: application/json'),
  payloadTooLarge: (limit: number) =>
    new AppError('payload_too_large', `The request body is larger than ${limit} bytes`),
};
