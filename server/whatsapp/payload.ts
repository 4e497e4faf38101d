// The parts of Meta's WhatsApp Cloud API webhook payload we act on. Loose on purpose: Meta adds
// fields, and anything unknown is ignored rather than refused; a part of a message in an
// unexpected shape is dropped from it (`catch`), not the message.
import { z } from 'zod';

const MediaObject = z.looseObject({
  id: z.string().optional(),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});

const InboundMessage = z.looseObject({
  id: z.string().min(1),
  from: z.string().min(1),
  timestamp: z.string().optional().catch(undefined),
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional().catch(undefined),
  image: MediaObject.optional().catch(undefined),
  video: MediaObject.optional().catch(undefined),
  audio: MediaObject.optional().catch(undefined),
  document: MediaObject.optional().catch(undefined),
  sticker: MediaObject.optional().catch(undefined),
  // A template's quick-reply button: `payload` is what the service set when it sent the template.
  button: z
    .looseObject({ text: z.string().optional(), payload: z.string().optional() })
    .optional()
    .catch(undefined),
  interactive: z
    .looseObject({
      button_reply: z
        .looseObject({ id: z.string().optional(), title: z.string().optional() })
        .optional()
        .catch(undefined),
      list_reply: z
        .looseObject({ id: z.string().optional(), title: z.string().optional() })
        .optional()
        .catch(undefined),
      nfm_reply: z.looseObject({ body: z.string().optional() }).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  location: z
    .looseObject({
      name: z.string().optional().catch(undefined),
      address: z.string().optional().catch(undefined),
      latitude: z.number().optional().catch(undefined),
      longitude: z.number().optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  contacts: z
    .array(z.looseObject({ name: z.looseObject({ formatted_name: z.string().optional() }).optional() }))
    .optional()
    .catch(undefined),
  reaction: z
    .looseObject({ message_id: z.string().optional(), emoji: z.string().optional() })
    .optional()
    .catch(undefined),
  order: z
    .looseObject({ product_items: z.array(z.unknown()).optional() })
    .optional()
    .catch(undefined),
  system: z.looseObject({ body: z.string().optional() }).optional().catch(undefined),
});

const StatusReceipt = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  timestamp: z.string().optional(),
  recipient_id: z.string().optional(),
  errors: z
    .array(
      z.looseObject({
        code: z.union([z.number(), z.string()]).optional(),
        title: z.string().optional(),
        message: z.string().optional(),
        error_data: z.looseObject({ details: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

const ChangeValue = z.looseObject({
  messaging_product: z.string().optional(),
  metadata: z.looseObject({
    phone_number_id: z.string().min(1),
    display_phone_number: z.string().optional(),
  }),
  contacts: z
    .array(
      z.looseObject({
        wa_id: z.string().optional(),
        profile: z.looseObject({ name: z.string().optional() }).optional(),
      }),
    )
    .optional(),
  // One message Meta sends in a shape we do not expect is skipped alone (and logged), never its batch.
  messages: z.array(InboundMessage.nullable().catch(null)).optional(),
  statuses: z.array(StatusReceipt).optional(),
});

export const WebhookPayload = z.looseObject({
  object: z.string(),
  entry: z.array(
    z.looseObject({
      id: z.string().optional(),
      changes: z.array(z.looseObject({ field: z.string(), value: z.unknown() })).default([]),
    }),
  ),
});

export type InboundMessage = z.infer<typeof InboundMessage>;
export type StatusReceipt = z.infer<typeof StatusReceipt>;
export type ChangeValue = z.infer<typeof ChangeValue>;

/** Each `messages` change value that has the shape we need; others are skipped (and logged by the caller). */
export function messageChanges(payload: z.infer<typeof WebhookPayload>): {
  values: ChangeValue[];
  skipped: number;
} {
  const values: ChangeValue[] = [];
  let skipped = 0;
  for (const entry of payload.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages') continue;
      const parsed = ChangeValue.safeParse(change.value);
      if (parsed.success) values.push(parsed.data);
      else skipped++;
    }
  }
  return { values, skipped };
}

export const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;
type MediaKind = (typeof MEDIA_TYPES)[number];

function isMediaKind(type: string): type is MediaKind {
  return (MEDIA_TYPES as readonly string[]).includes(type);
}

/** An inbound media message's file as we keep it (the file itself stays with Meta until asked for). */
export function messageMedia(
  message: InboundMessage,
): { type: string; id: string; mime_type?: string; caption?: string; filename?: string } | null {
  if (!isMediaKind(message.type)) return null;
  const media = message[message.type];
  if (!media?.id) return null;
  return {
    type: message.type,
    id: media.id,
    ...(media.mime_type ? { mime_type: media.mime_type } : {}),
    ...(media.caption ? { caption: media.caption } : {}),
    ...(media.filename ? { filename: media.filename } : {}),
  };
}

/** Ids longer than any the service sends are not its choices (row ids ≤ 200, button ids ≤ 256). */
const MAX_TAP_ID = 256;

/**
 * A tap on something the service sent: a row of a list (`list_reply`), a reply button
 * (`button_reply`), or a template's quick-reply button (`button` with the payload the service set).
 * Null for anything else. The id is only looked up, never trusted as data (server/domain/offers/).
 */
export function messageTap(
  message: InboundMessage,
): { type: 'list_reply' | 'button_reply' | 'quick_reply'; id: string; title: string } | null {
  const pick = (type: 'list_reply' | 'button_reply' | 'quick_reply', id?: string, title?: string) =>
    id && id.length <= MAX_TAP_ID ? { type, id, title: (title ?? '').slice(0, 200) } : null;
  if (message.type === 'interactive') {
    const list = message.interactive?.list_reply;
    if (list) return pick('list_reply', list.id, list.title);
    const button = message.interactive?.button_reply;
    if (button) return pick('button_reply', button.id, button.title);
    return null;
  }
  if (message.type === 'button') return pick('quick_reply', message.button?.payload, message.button?.text);
  return null;
}

/** What we store as a message's text: the text itself, or a readable rendering of other kinds. */
export function messageText(message: InboundMessage): string {
  switch (message.type) {
    case 'text':
      return message.text?.body ?? '';
    case 'button':
      return message.button?.text ?? '[button]';
    case 'interactive':
      return (
        message.interactive?.button_reply?.title ??
        message.interactive?.list_reply?.title ??
        message.interactive?.nfm_reply?.body ??
        '[interactive]'
      );
    case 'image':
    case 'video':
    case 'audio':
    case 'sticker':
      return message[message.type]?.caption ?? `[${message.type}]`;
    case 'document':
      return (
        message.document?.caption ??
        (message.document?.filename ? `[document: ${message.document.filename}]` : '[document]')
      );
    case 'location': {
      const place = [message.location?.name, message.location?.address].filter(Boolean).join(', ');
      if (place) return `[location: ${place}]`;
      const { latitude, longitude } = message.location ?? {};
      return latitude !== undefined && longitude !== undefined
        ? `[location: ${latitude}, ${longitude}]`
        : '[location]';
    }
    case 'contacts': {
      const names = (message.contacts ?? []).map((c) => c.name?.formatted_name).filter(Boolean);
      return names.length ? `[contacts: ${names.join(', ')}]` : '[contacts]';
    }
    case 'reaction':
      // An empty emoji is WhatsApp's way of saying the reaction was removed.
      return message.reaction?.emoji ? `[reaction: ${message.reaction.emoji}]` : '[reaction removed]';
    case 'order':
      return `[order: ${message.order?.product_items?.length ?? 0} item(s)]`;
    case 'system':
      return message.system?.body ?? '[system]';
    default:
      return `[${message.type}]`;
  }
}
