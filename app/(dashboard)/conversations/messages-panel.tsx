'use client';
import { useQuery } from '@tanstack/react-query';
import { formatTime, QueryState } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import { Card, CardBody, CardHeader, cn, StatusBadge } from '@/app/_components/ui';

/** The latest messages of one conversation, oldest at the top; the customer left, us right. */
export function MessagesPanel({ id }: { id: string }) {
  const trpc = useTRPC();
  const messages = useQuery(trpc.conversations.messages.queryOptions({ id, limit: 30 }));
  return (
    <Card className="mt-6" aria-labelledby="messages-title">
      <CardHeader title="Messages" titleId="messages-title" />
      <CardBody>
        <QueryState
          query={messages}
          rows={messages.data?.data}
          empty={<p className="text-muted">No messages yet.</p>}
        >
          {(items) => (
            <ol className="flex flex-col gap-2">
              {[...items].reverse().map((m) => (
                <li
                  key={m.id}
                  className={cn(
                    'max-w-[85%] rounded-card px-3 py-2 sm:max-w-[70%]',
                    m.direction === 'outbound' ? 'self-end bg-accent-soft' : 'self-start bg-subtle',
                  )}
                >
                  <div className="whitespace-pre-wrap [overflow-wrap:anywhere]">{m.text}</div>
                  <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted">
                    {m.direction} <StatusBadge status={m.status} /> {formatTime(m.created_at)}
                  </div>
                </li>
              ))}
            </ol>
          )}
        </QueryState>
      </CardBody>
    </Card>
  );
}
