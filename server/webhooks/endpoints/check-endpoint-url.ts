// 422 url_not_allowed (the `url` rule in the OpenAPI description of POST /webhooks), with the field
// path like every validation error.
import { AppError } from '@/server/lib/errors';
import { assertPublicTarget, UrlNotAllowedError } from '@/server/security/url-guard';

function urlNotAllowed(detail: string): AppError {
  return new AppError('url_not_allowed', `The webhook url is not allowed: ${detail}`, {
    errors: [{ path: 'url', message: detail }],
  });
}

export async function checkEndpointUrl(url: string): Promise<void> {
  try {
    await assertPublicTarget(url);
  } catch (error) {
    if (error instanceof UrlNotAllowedError) throw urlNotAllowed(error.message);
    throw error;
  }
}
