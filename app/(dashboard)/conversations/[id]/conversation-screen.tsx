'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { formatTime, QueryState } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  ErrorNotice,
  Notice,
  PageHeader,
  StatusBadge,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { useViewer } from '@/app/_components/viewer';
import { MessageBubble, type ThreadMessage } from './message-bubble';
import { OfferTimesDialog } from './offer-times-dialog';
import { ReplyBox } from './reply-box';

/** New messages and receipts show up without a reload. */
const THREAD_REFRESH_MS = 3_000;

/** The agent's screen: the thread, the hand-off, and the reply box. */
export function ConversationScreen({ id }: { id: string }) {
  const trpc = useTRPC();
  const { userId: me, can } = useViewer();
  const feedback = useFeedback();
  const conversation = useQuery({
    ...trpc.conversations.getConversation.queryOptions({ id }),
    refetchInterval: 10_000,
  });
  const messages = useQuery({
    ...trpc.conversations.listConversationMessages.queryOptions({ id, limit: 100 }),
    refetchInterval: THREAD_REFRESH_MS,
  });
  const invalidate = [trpc.conversations.pathKey()];
  const assign = useAction(trpc.conversations.assignConversation.mutationOptions(), {
    feedback,
    success: 'You now handle this conversation',
    invalidate,
  });
  const resolve = useAction(trpc.conversations.resolveConversation.mutationOptions(), {
    feedback,
    success: 'Conversation resolved',
    invalidate,
  });
  const thread = [...((messages.data?.data ?? []) as ThreadMessage[])].reverse();
  const tapped = new Set(thread.flatMap((m) => (m.interactive?.reply ? [m.interactive.reply.id] : [])));
  const end = useRef<HTMLLIElement>(null);
  const newest = thread.at(-1)?.id;
  useEffect(() => {
    if (newest) end.current?.scrollIntoView({ block: 'end' });
  }, [newest]);

  if (conversation.error) return <ErrorNotice error={conversation.error} />;
  const c = conversation.data;
  if (!c) return <p className="text-muted">Loading…</p>;
  const windowOpen = c.window_expires_at !== null && Date.parse(c.window_expires_at) > Date.now();
  const busy = assign.isPending || resolve.isPending;
  const contact = c.contact.name ?? c.contact.phone ?? 'Unknown contact';

  return (
    <>
      <PageHeader
        title={contact}
        description={
          <>
            <Link href="/conversations" className="text-accent underline">
              Conversations
            </Link>{' '}
            · {c.channel}
            {c.contact.name && c.contact.phone ? ` · ${c.contact.phone}` : ''} ·{' '}
            <StatusBadge status={c.status} />
            {c.handoff_overdue_at && (
              <>
                {' '}
                <Badge tone="error">Overdue</Badge>
              </>
            )}
          </>
        }
        actions={
          <>
            {c.status !== 'resolved' && c.assignee_id !== me && (
              <Button disabled={busy} onClick={() => assign.mutate({ id, user_id: me })}>
                Assign to me
              </Button>
            )}
            {c.status !== 'resolved' && c.channel === 'whatsapp' && can('conversations.write') && (
              <OfferTimesDialog conversationId={id} windowOpen={windowOpen} feedback={feedback} />
            )}
            {c.status !== 'resolved' && (
              <Button variant="secondary" disabled={busy} onClick={() => resolve.mutate({ id })}>
                Resolve
              </Button>
            )}
          </>
        }
      />
      {feedback.node}
      {c.handoff_reason && (
        <Notice tone={c.handoff_overdue_at ? 'error' : 'info'} className="mb-4">
          <strong>Hand-off{c.handoff_requested_at ? ` (${formatTime(c.handoff_requested_at)})` : ''}:</strong>{' '}
          {c.handoff_reason}
          {c.handoff_summary && <div className="mt-1 whitespace-pre-wrap">{c.handoff_summary}</div>}
        </Notice>
      )}
      <Card aria-labelledby="thread-title">
        <CardHeader title="Messages" titleId="thread-title" />
        <CardBody>
          <QueryState query={messages} rows={thread} empty={<p className="text-muted">No messages yet.</p>}>
            {(items) => (
              // A scrolling thread: keyboard users reach and scroll it too (focusable, named by its card).
              <ol
                className="flex max-h-[60vh] flex-col gap-2 overflow-y-auto rounded-control focus-visible:outline-2 focus-visible:outline-accent"
                aria-live="polite"
                aria-labelledby="thread-title"
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
                tabIndex={0}
              >
                {items.map((m) => (
                  <MessageBubble key={m.id} message={m} tapped={tapped} />
                ))}
                <li ref={end} aria-hidden className="h-px" />
              </ol>
            )}
          </QueryState>
        </CardBody>
      </Card>
      {c.status !== 'resolved' ? (
        <Card className="mt-4">
          <CardBody>
            <ReplyBox conversation={c} feedback={feedback} />
          </CardBody>
        </Card>
      ) : (
        <p className="mt-4 text-sm text-muted">Resolved. A new message from the customer reopens it.</p>
      )}
    </>
  );
}
