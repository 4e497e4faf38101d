import { z } from 'zod';
import { LIMITS } from '@/server/client-safe/limits';
import { CONVERSATION_STATUSES } from '@/server/client-safe/statuses';
import { ListQuery, Timestamp } from '@/server/lib/schemas';

export const ConversationStatus = z.enum(CONVERSATION_STATUSES);
export const HandledBy = z.enum(['ai', 'human']);
export const ChannelKind = z.enum(['whatsapp', 'web', 'sms']);

export const Conversation = z.object({
  id: z.string().meta({ example: 'cnv_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  channel: ChannelKind,
  channel_id: z
    .string()
    .nullable()
    .meta({ description: 'The registered channel (WhatsApp number) it runs on, if any' }),
  contact: z.object({ name: z.string().nullable(), phone: z.string().nullable() }),
  status: ConversationStatus,
  handled_by: HandledBy,
  assignee_id: z.string().nullable(),
  handoff_reason: z
    .string()
    .nullable()
    .meta({ description: 'Why the AI handed over (kept after assignment)' }),
  handoff_summary: z.string().nullable(),
  handoff_requested_at: Timestamp.nullable().meta({ description: 'When it last joined the hand-off queue' }),
  handoff_overdue_at: Timestamp.nullable().meta({
    description:
      'When that hand-off was found waiting longer than HANDOFF_SLA (conversation.handoff.overdue)',
  }),
  last_message_at: Timestamp.nullable(),
  window_expires_at: Timestamp.nullable().meta({
    description:
      'WhatsApp: when the customer service window closes (24 h after the last inbound message); null ' +
      'when it never opened, and always null on other channels. Outside it only templates may be sent.',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const MediaType = z.enum(['image', 'document', 'audio', 'video']);

const TemplateComponent = z
  .looseObject({ type: z.string().min(1).max(32) })
  .meta({ description: 'A Graph API template component (header, body, button…) with its parameters' });

export const Template = z.object({
  name: z
    .string()
    .min(1)
    .max(512)
    .regex(/^[a-z0-9_]+$/, 'Lower-case letters, digits and underscores, as Meta names templates'),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'A language code such as en or en_US')
    .meta({ example: 'en_US' }),
  components: z.array(TemplateComponent).max(20).optional(),
});

export const OutboundMedia = z.object({
  type: MediaType,
  link: z.url({ protocol: /^https$/, error: 'An https URL WhatsApp can fetch the file from' }).max(2048),
  caption: z.string().trim().min(1).max(1024).optional(),
  filename: z.string().trim().min(1).max(240).optional().meta({ description: 'Documents only' }),
});

export const MessageMedia = z.object({
  type: z.string(),
  id: z.string().optional().meta({
    description: 'Inbound: the WhatsApp media id (GET …/messages/{message_id}/media streams the file)',
  }),
  link: z.string().optional().meta({ description: 'Outbound: the https link WhatsApp fetched' }),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});

export const MessageStatus = z.enum(['received', 'queued', 'sent', 'delivered', 'read', 'failed']);

const InteractiveOption = z.object({
  id: z.string().meta({ description: 'What WhatsApp sends back when the customer taps it' }),
  title: z.string(),
  description: z.string().nullable(),
});

export const MessageInteractive = z
  .object({
    kind: z.enum(['list', 'buttons', 'cta_url', 'reply']).meta({
      description:
        'Outbound: a list of options (an offer of times), reply buttons, or a call-to-action link; inbound: ' +
        'the customer’s tap on one (`reply`)',
    }),
    body: z.string().nullable(),
    button: z.string().optional().meta({ description: 'The list’s button, or the link’s label' }),
    sections: z.array(z.object({ title: z.string().nullable(), options: z.array(InteractiveOption) })),
    url: z.string().nullable().meta({ description: 'cta_url: where the link goes (a Checkout page)' }),
    reply: z.object({ id: z.string(), title: z.string() }).nullable().meta({
      description: 'reply: the option or button tapped (its id is one of an earlier message’s options)',
    }),
  })
  .meta({ id: 'MessageInteractive' });

export const Message = z.object({
  id: z.string().meta({ example: 'msg_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  conversation_id: z.string(),
  direction: z.enum(['inbound', 'outbound']),
  type: z.string().meta({
    description:
      'WhatsApp message type: text, template, image, document, audio, video, sticker, location, contacts, ' +
      'interactive, button, reaction, order, system, unsupported…',
    example: 'text',
  }),
  text: z.string().meta({
    description: 'The text, or a readable rendering of other kinds (caption, button title, place…)',
  }),
  template: Template.nullable(),
  media: MessageMedia.nullable(),
  interactive: MessageInteractive.nullable(),
  status: MessageStatus,
  external_id: z.string().nullable().meta({ description: 'The provider’s message id (WhatsApp wamid)' }),
  failure_reason: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ConversationListQuery = ListQuery.extend({
  status: ConversationStatus.optional(),
  handled_by: HandledBy.optional(),
  assignee_id: z.string().min(1).max(64).optional(),
});

export const CreateConversationInput = z.object({
  channel: ChannelKind,
  channel_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'Required for whatsapp: a WhatsApp channel of this tenant' }),
  contact: z.object({
    name: z.string().trim().min(1).max(200).optional(),
    phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9]{5,20}$/, 'Digits only, optionally with a leading +')
      .optional(),
  }),
});

export const SendMessageInput = z
  .object({
    text: z.string().trim().min(1).max(LIMITS.messageText).optional().meta({
      description: 'Plain text, at most 4096 characters (WhatsApp’s limit); only inside the window',
    }),
    template: Template.optional().meta({ description: 'An approved template: allowed at any time' }),
    media: OutboundMedia.optional().meta({
      description: 'A file WhatsApp fetches from `link`; only inside the window',
    }),
  })
  .superRefine((value, ctx) => {
    const given = (['text', 'template', 'media'] as const).filter((k) => value[k] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: given.length === 0 ? ['text'] : [given[1]],
        message: 'Send exactly one of text, template or media',
      });
    }
    if (value.media?.filename && value.media.type !== 'document') {
      ctx.addIssue({
        code: 'custom',
        path: ['media', 'filename'],
        message: 'Only documents have a filename',
      });
    }
  });

export const HandoffInput = z.object({
  reason: z.string().trim().min(1).max(500),
  summary: z.string().trim().min(1).max(5000).optional(),
});

export const AssignInput = z.object({ user_id: z.string().min(1).max(64) });

export type CreateConversationInput = z.output<typeof CreateConversationInput>;
export type SendMessageInput = z.output<typeof SendMessageInput>;
export type HandoffInput = z.output<typeof HandoffInput>;
export type AssignInput = z.output<typeof AssignInput>;
