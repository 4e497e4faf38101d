import { HttpErrors } from './errors';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The request's body streamed through a counter: a body whose Content-Length says more than `limit`,
 * or that turns out longer, errors the stream with `tooLarge()` at the first read past the limit, and
 * the rest is never read. Nothing is read ahead: a body nobody reads is never read. Null without a
 * body. REST reads it at once (`readBodyText`); tRPC only when a procedure asks for its input
 * (server/trpc/http-handler.ts).
 */
export function limitedBody(
  request: Request,
  tooLarge: () => Error = () => HttpErrors.payloadTooLarge(MAX_BODY_BYTES),
  limit = MAX_BODY_BYTES,
): ReadableStream<Uint8Array> | null {
  const source = request.body;
  if (!source) return null;
  const declared = Number(request.headers.get('content-length') ?? '0');
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let size = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (declared > limit) {
          await source.cancel().catch(() => {});
          controller.error(tooLarge());
          return;
        }
        reader ??= source.getReader();
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => {});
          controller.error(tooLarge());
          return;
        }
        controller.enqueue(value);
      },
      async cancel(reason) {
        await (reader ?? source).cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}

/** Reads the request body as text, refusing more than MAX_BODY_BYTES without buffering it all. */
export async function readBodyText(request: Request): Promise<string> {
  const body = limitedBody(request);
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
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
