import { ApiError } from '@/server/http/errors';
import { assertPublicTarget, UrlNotAllowedError } from './url-guard';

/** 422 url_not_allowed (CONTRACT §6), with the field path like every validation error. */
export function urlNotAllowed(detail: string): ApiError {
  return new ApiError(422, 'url_not_allowed', `The webhook url is not allowed: ${detail}`, {
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
