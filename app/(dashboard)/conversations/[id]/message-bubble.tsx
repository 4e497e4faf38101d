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
  status: string;
  failure_reason: string | null;
  created_at: string;
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

/** One message: the customer's on the left, ours on the right, with what became of ours. */
export function MessageBubble({ message: m }: { message: ThreadMessage }) {
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
      {showText && !m.template && (
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
