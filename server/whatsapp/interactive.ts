// WhatsApp's interactive messages, as the Graph API takes them (`type: "interactive"`), and Meta's
// limits on each, checked before a message leaves: Meta refuses an over-limit message, and one that
// fails silently is the worst outcome (the customer waits for a list that never comes). A message
// that breaks a limit is stored `failed` with the reason instead of being sent.
//
// - list: a body (≤ 1024), a button (≤ 20), at most 10 sections and 10 rows in all; a section title
//   (≤ 24) is required when there is more than one; a row: id (≤ 200, unique), title (≤ 24),
//   description (≤ 72). Optional text header (≤ 60) and footer (≤ 60).
// - button: a body, 1 to 3 reply buttons, titles ≤ 20 and unique, ids ≤ 256 and unique.
// - cta_url: a body and one button: display_text ≤ 20, an https URL.
// Lengths count UTF-16 code units (JavaScript's `length`), never fewer than the characters Meta counts.
import { z } from 'zod';

export const LIMITS = {
  body: 1024,
  header: 60,
  footer: 60,
  listButton: 20,
  sections: 10,
  rows: 10,
  sectionTitle: 24,
  rowId: 200,
  rowTitle: 24,
  rowDescription: 72,
  replyButtons: 3,
  buttonTitle: 20,
  buttonId: 256,
  ctaText: 20,
} as const;

const text = (max: number) => z.string().min(1).max(max);
const Body = z.object({ text: text(LIMITS.body) });
const Footer = z.object({ text: text(LIMITS.footer) }).optional();
const Header = z.object({ type: z.literal('text'), text: text(LIMITS.header) }).optional();

const Row = z.object({
  id: text(LIMITS.rowId),
  title: text(LIMITS.rowTitle),
  description: z.string().max(LIMITS.rowDescription).optional(),
});

const ListMessage = z
  .object({
    type: z.literal('list'),
    header: Header,
    body: Body,
    footer: Footer,
    action: z.object({
      button: text(LIMITS.listButton),
      sections: z
        .array(z.object({ title: z.string().max(LIMITS.sectionTitle).optional(), rows: z.array(Row).min(1) }))
        .min(1)
        .max(LIMITS.sections),
    }),
  })
  .superRefine((list, ctx) => {
    const rows = list.action.sections.flatMap((s) => s.rows);
    if (rows.length > LIMITS.rows) ctx.addIssue({ code: 'custom', message: `more than ${LIMITS.rows} rows` });
    if (new Set(rows.map((r) => r.id)).size !== rows.length)
      ctx.addIssue({ code: 'custom', message: 'row ids are not unique' });
    if (list.action.sections.length > 1 && list.action.sections.some((s) => !s.title))
      ctx.addIssue({
        code: 'custom',
        message: 'a section title is required when there are several sections',
      });
  });

const ButtonMessage = z
  .object({
    type: z.literal('button'),
    header: Header,
    body: Body,
    footer: Footer,
    action: z.object({
      buttons: z
        .array(
          z.object({
            type: z.literal('reply'),
            reply: z.object({ id: text(LIMITS.buttonId), title: text(LIMITS.buttonTitle) }),
          }),
        )
        .min(1)
        .max(LIMITS.replyButtons),
    }),
  })
  .superRefine((message, ctx) => {
    const replies = message.action.buttons.map((b) => b.reply);
    if (new Set(replies.map((r) => r.title)).size !== replies.length)
      ctx.addIssue({ code: 'custom', message: 'button titles are not unique' });
    if (new Set(replies.map((r) => r.id)).size !== replies.length)
      ctx.addIssue({ code: 'custom', message: 'button ids are not unique' });
  });

const CtaUrlMessage = z.object({
  type: z.literal('cta_url'),
  header: Header,
  body: Body,
  footer: Footer,
  action: z.object({
    name: z.literal('cta_url'),
    parameters: z.object({
      display_text: text(LIMITS.ctaText),
      url: z.url({ protocol: /^https?$/ }),
    }),
  }),
});

export const InteractiveMessage = z.discriminatedUnion('type', [ListMessage, ButtonMessage, CtaUrlMessage]);
export type Interactive = z.input<typeof InteractiveMessage>;

/** Why Meta would refuse this message, or null when it is within every limit. */
export function interactiveProblem(message: unknown): string | null {
  const checked = InteractiveMessage.safeParse(message);
  if (checked.success) return null;
  const issue = checked.error.issues[0];
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `Not sent: the interactive message breaks a WhatsApp limit (${where}${issue.message})`;
}

/** What the message reads as, for the conversation's history and its events. */
export function interactiveText(message: Interactive): string {
  const parts = [message.header?.text, message.body.text];
  if (message.type === 'list') {
    for (const section of message.action.sections) {
      const rows = section.rows.map((r) => r.title).join(', ');
      parts.push(section.title ? `${section.title}: ${rows}` : rows);
    }
  } else if (message.type === 'button') {
    parts.push(message.action.buttons.map((b) => `[${b.reply.title}]`).join(' '));
  } else {
    parts.push(`[${message.action.parameters.display_text}] ${message.action.parameters.url}`);
  }
  return parts.filter(Boolean).join('\n');
}

/** Cuts `value` to `max` UTF-16 units, with an ellipsis when it had to. */
export function clip(value: string, max: number): string {
  if (value.length <= max) return value;
  let cut = value.slice(0, max - 1);
  // Never half of a surrogate pair (an emoji): Meta would count a broken character.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
