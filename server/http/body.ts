import { HttpErrors } from './errors';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the request body as text, refusing more than MAX_BODY_BYTES without buffering it all. */
export async function readBodyText(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw HttpErrors.payloadTooLarge(MAX_BODY_BYTES);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw HttpErrors.payloadTooLarge(MAX_BODY_BYTES);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const [type] = value.split(';');
  return type.trim().toLowerCase() === 'application/json';
}

/** JSON body of a POST/PATCH/PUT: 415 for another media type, 400 for malformed JSON. */
export function parseJsonBody(text: string, contentType: string | null): unknown {
  if (text.length === 0) return undefined;
  if (!isJsonContentType(contentType)) throw HttpErrors.unsupportedMediaType();
  try {
    return JSON.parse(text);
  } catch (error) {
    throw HttpErrors.invalidJson(`The request body is not valid JSON: ${(error as Error).message}`);
  }
}
