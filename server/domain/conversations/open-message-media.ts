import { settings } from '@/server/config/settings';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { decryptSecret } from '@/server/security/secret-box';
import { fetchWhatsAppMedia } from '@/server/whatsapp/graph-client';

// Types a browser may show in place; anything else is offered as a download (a customer's HTML
// "document" must never run at our origin).
const INLINE_TYPES = /^(image\/(jpeg|png|webp|gif)|audio\/[\w.+-]+|video\/(mp4|3gpp))$/;

export interface MediaFile {
  stream: ReadableStream<Uint8Array>;
  mimeType: string;
  /** Known when WhatsApp sent a length; the stream stops at WHATSAPP_MEDIA_MAX_BYTES either way. */
  size: number | null;
  filename: string | null;
  inline: boolean;
}

/**
 * An inbound message's file, fetched from the Graph API with the channel's token at the moment it
 * is asked for (Meta keeps the file; its URL expires). The token never leaves the server: the caller
 * streams the bytes on. Larger than WHATSAPP_MEDIA_MAX_BYTES: refused, or cut off with an error.
 */
export async function openMessageMedia(
  ctx: OperationContext,
  input: { conversationId: string; messageId: string },
): Promise<MediaFile> {
  const { db } = ctx;
  const message = await db.message.findFirst({
    where: { id: input.messageId, conversationId: input.conversationId },
    select: { media: true, conversationId: true },
  });
  if (!message) throw Errors.notFound('Message');
  const media = message.media as { id?: string; mime_type?: string; filename?: string } | null;
  if (!media?.id) throw Errors.notFound('Media file');
  const conversation = await db.conversation.findUniqueOrThrow({
    where: { id: message.conversationId },
    select: { channelId: true },
  });
  const channel = conversation.channelId
    ? await db.channel.findUnique({ where: { id: conversation.channelId }, select: { accessTokenEnc: true } })
    : null;
  if (!channel?.accessTokenEnc) throw Errors.mediaUnavailable('The conversation’s WhatsApp channel is gone');
  let accessToken: string;
  try {
    accessToken = decryptSecret(channel.accessTokenEnc);
  } catch {
    throw Errors.mediaUnavailable('The channel access token cannot be decrypted (was SECRETS_KEY changed?)');
  }
  const fetched = await fetchWhatsAppMedia({ mediaId: media.id, accessToken });
  if (!fetched.ok) throw Errors.mediaUnavailable(`WhatsApp did not hand over the file: ${fetched.reason}`);

  const max = settings().WHATSAPP_MEDIA_MAX_BYTES;
  const length = Number(fetched.response.headers.get('content-length'));
  const size =
    Number.isFinite(length) && length >= 0 && fetched.response.headers.has('content-length') ? length : null;
  if (size !== null && size > max) {
    await fetched.response.body?.cancel();
    throw Errors.mediaUnavailable(
      `The file (${size} bytes) is larger than WHATSAPP_MEDIA_MAX_BYTES (${max})`,
    );
  }
  const mimeType = (fetched.mimeType ?? media.mime_type ?? 'application/octet-stream').split(';')[0].trim();
  return {
    stream: (fetched.response.body ?? new ReadableStream()).pipeThrough(atMost(max)),
    mimeType,
    size,
    filename: media.filename ?? null,
    inline: INLINE_TYPES.test(mimeType),
  };
}

/** Passes bytes through until `max`, then errors the stream (the download ends incomplete). */
function atMost(max: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max) controller.error(new Error(`media larger than ${max} bytes`));
      else controller.enqueue(chunk);
    },
  });
}
