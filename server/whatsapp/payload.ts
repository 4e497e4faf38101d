// The parts of Meta's WhatsApp Cloud API webhook payload we act on. Loose on purpose: Meta adds
// fields, and anything unknown is ignored rather than refused.
import { z } from 'zod';

const InboundMessage = z.looseObject({
  id: z.string().min(1),
  from: z.string().min(1),
  timestamp: z.string().optional(),
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  image: z.looseObject({ caption: z.string().optional() }).optional(),
  video: z.looseObject({ caption: z.string().optional() }).optional(),
  document: z.looseObject({ caption: z.string().optional(), filename: z.string().optional() }).optional(),
  button: z.looseObject({ text: z.string().optional() }).optional(),
  interactive: z
    .looseObject({
      button_reply: z.looseObject({ title: z.string().optional() }).optional(),
      list_reply: z.looseObject({ title: z.string().optional() }).optional(),
    })
    .optional(),
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
  messages: z.array(InboundMessage).optional(),
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

/** What we store as a message's text: the text itself, or a caption or label for other kinds. */
export function messageText(message: InboundMessage): string {
  switch (message.type) {
    case 'text':
      return message.text?.body ?? '';
    case 'button':
      return message.button?.text ?? '[button]';
    case 'interactive':
      return (
        message.interactive?.button_reply?.title ?? message.interactive?.list_reply?.title ?? '[interactive]'
      );
    case 'image':
    case 'video':
      return message[message.type]?.caption ?? `[${message.type}]`;
    case 'document':
      return (
        message.document?.caption ??
        (message.document?.filename ? `[document: ${message.document.filename}]` : '[document]')
      );
    default:
      return `[${message.type}]`;
  }
}
