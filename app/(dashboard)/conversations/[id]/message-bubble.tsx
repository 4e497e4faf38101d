'use client';
import { formatTime } from '@/app/_components/feedback';
import { cn, StatusBadge } from '@/app/_components/ui';

export interface ThreadMessage {
  id: string;
  conversation_id: string;
  direction: 'inbound' | 'outbound';
  type: string;
  text: string;
  template: { name: string; language: string } | null;
  media: {
    type: string;
    id?: string;
    link?: string;
    mime_type?: string;
    filename?: string;
    caption?: string;
  } | null;
  interactive: Interactive | null;
  status: string;
  failure_reason: string | null;
  created_at: string;
}

interface Interactive {
  kind: 'list' | 'buttons' | 'cta_url' | 'reply';
  body: string | null;
  button?: string;
  sections: Array<{
    title: string | null;
    options: Array<{ id: string; title: string; description: string | null }>;
  }>;
  url: string | null;
  reply: { id: string; title: string } | null;
}

/** The dashboard's own route for an inbound file (the session, never the channel token). */
const mediaUrl = (m: ThreadMessage) =>
  `/api/dashboard/v1/conversations/${m.conversation_id}/messages/${m.id}/media`;

function Media({ message }: { message: ThreadMessage }) {
  const media = message.media;
  if (!media) return null;
  // Outbound files live at the link WhatsApp fetched; inbound ones come through our media route.
  const src = media.id ? mediaUrl(message) : media.link;
  if (!src) return null;
  const label =
    media.filename ??
    media.caption ??
    `${media.type} from ${message.direction === 'inbound' ? 'the customer' : 'us'}`;
  if (media.type === 'image' || media.type === 'sticker')
    return (
      <a href={src} target="_blank" rel="noreferrer" className="block">
        {/* biome-ignore lint/performance/noImgElement: a private, session-authorised file (no optimiser) */}
        <img
          src={src}
          alt={label}
          loading="lazy"
          className="max-h-72 max-w-full rounded-control border border-border"
        />
      </a>
    );
  if (media.type === 'audio')
    // biome-ignore lint/a11y/useMediaCaption: customers' voice notes come without captions
    return <audio controls preload="none" src={src} aria-label={label} className="max-w-full" />;
  if (media.type === 'video')
    // biome-ignore lint/a11y/useMediaCaption: customers' videos come without captions
    return <video controls preload="none" src={src} aria-label={label} className="max-h-72 max-w-full" />;
  return (
    <a href={src} download={media.filename ?? true} className="font-medium text-accent underline">
      {media.filename ?? `Download ${media.type}`}
    </a>
  );
}

/**
 * A list, reply buttons or a link as the customer sees them, with the options they tapped marked;
 * a tap of theirs as the option it names.
 */
function InteractivePart({ value, tapped }: { value: Interactive; tapped: ReadonlySet<string> }) {
  if (value.kind === 'reply') return <div>Tapped “{value.reply?.title}”</div>;
  return (
    <div className="flex flex-col gap-2">
      {value.body && <div className="whitespace-pre-wrap [overflow-wrap:anywhere]">{value.body}</div>}
      {value.kind === 'cta_url' && value.url && (
        <a href={value.url} target="_blank" rel="noreferrer" className="font-medium text-accent underline">
          {value.button ?? 'Open link'}
        </a>
      )}
      {value.kind === 'list' && value.button && (
        <div className="text-xs font-semibold uppercase tracking-wide text-muted">List · {value.button}</div>
      )}
      {value.sections.map((section, i) => (
        <div key={section.title ?? i}>
          {section.title && <div className="text-xs font-semibold text-muted">{section.title}</div>}
          <ul
            className={cn(value.kind === 'buttons' ? 'flex flex-wrap gap-1.5' : 'flex flex-col gap-1')}
            aria-label={section.title ?? (value.kind === 'buttons' ? 'Buttons' : 'Options')}
          >
            {section.options.map((option) => {
              const chosen = tapped.has(option.id);
              return (
                <li
                  key={option.id}
                  className={cn(
                    'rounded-control border px-2 py-1 text-sm',
                    chosen ? 'border-ok bg-ok-soft font-semibold' : 'border-border bg-panel',
                  )}
                >
                  {option.title}
                  {option.description && <span className="text-muted"> · {option.description}</span>}
                  {chosen && <span className="sr-only sm:not-sr-only"> · tapped</span>}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </div>
  );
}

/** One message: the customer's on the left, ours on the right, with what became of ours. */
export function MessageBubble({
  message: m,
  tapped = new Set(),
}: {
  message: ThreadMessage;
  /** The ids of the options the customer tapped anywhere in the thread. */
  tapped?: ReadonlySet<string>;
}) {
  const showText = !(m.media && (m.text === `[${m.type}]` || m.text.startsWith(`[${m.type}: `)));
  return (
    <li
      data-testid={`message-${m.id}`}
      className={cn(
        'flex max-w-[88%] flex-col gap-1.5 rounded-card px-3 py-2 sm:max-w-[70%]',
        m.direction === 'outbound' ? 'self-end bg-accent-soft' : 'self-start bg-subtle',
      )}
    >
      {m.template && (
        <div className="text-xs font-semibold uppercase tracking-wide text-muted">
          Template {m.template.name} · {m.template.language}
        </div>
      )}
      <Media message={m} />
      {m.interactive && <InteractivePart value={m.interactive} tapped={tapped} />}
      {showText && !m.template && !m.interactive && (
        <div className="whitespace-pre-wrap [overflow-wrap:anywhere]">{m.text}</div>
      )}
      <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted">
        {m.direction === 'outbound' ? <StatusBadge status={m.status} /> : <span>{m.type}</span>}
        <time dateTime={m.created_at}>{formatTime(m.created_at)}</time>
      </div>
      {m.failure_reason && <div className="text-xs text-error">{m.failure_reason}</div>}
    </li>
  );
}
