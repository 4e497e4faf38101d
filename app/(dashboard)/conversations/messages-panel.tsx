'use client';
import { useQuery } from '@tanstack/react-query';
import { formatTime, QueryState } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';

/** The latest messages of one conversation, oldest at the top. */
export function MessagesPanel({ id }: { id: string }) {
  const trpc = useTRPC();
  const messages = useQuery(trpc.conversations.messages.queryOptions({ id, limit: 30 }));
  return (
    <section className="panel" style={{ marginTop: '1rem' }} aria-label="Messages">
      <h2 style={{ marginTop: 0 }}>Messages</h2>
      <QueryState
        query={messages}
        rows={messages.data?.data}
        empty={<p className="muted">No messages yet.</p>}
      >
        {(items) => (
          <ol
            style={{
              listStyle: 'none',
              padding: 0,
              margin: 0,
              display: 'flex',
              flexDirection: 'column',
              gap: '0.5rem',
            }}
          >
            {[...items].reverse().map((m) => (
              <li
                key={m.id}
                style={{
                  alignSelf: m.direction === 'outbound' ? 'flex-end' : 'flex-start',
                  maxWidth: '70%',
                  background: m.direction === 'outbound' ? '#e8eefe' : '#f0f2f5',
                  borderRadius: 8,
                  padding: '0.4rem 0.7rem',
                }}
              >
                <div>{m.text}</div>
                <div className="muted" style={{ fontSize: '0.78rem' }}>
                  {m.direction} · {m.status} · {formatTime(m.created_at)}
                </div>
              </li>
            ))}
          </ol>
        )}
      </QueryState>
    </section>
  );
}
