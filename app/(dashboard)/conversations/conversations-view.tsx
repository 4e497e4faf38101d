'use client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from 'next-auth/react';
import { useState } from 'react';
import { StatusBadge } from '@/app/_components/delivery-status';
import { ErrorNote, formatTime, LoadMore, QueryState, useFlash } from '@/app/_components/feedback';
import { StatusSelect } from '@/app/_components/status-select';
import { TableHead } from '@/app/_components/table-head';
import { useTRPC } from '@/app/_components/trpc';
import { MessagesPanel } from './messages-panel';

const FILTERS = ['all', 'open', 'pending_human', 'resolved'] as const;
type Filter = (typeof FILTERS)[number];
type Conversation = {
  id: string;
  channel: string;
  contact: { name: string | null; phone: string | null };
  status: string;
  handled_by: string;
  assignee_id: string | null;
  handoff_reason: string | null;
  handoff_summary: string | null;
  last_message_at: string | null;
};

function handler(c: Conversation, me: string | undefined): string {
  if (c.handled_by !== 'human') return 'assistant';
  if (!c.assignee_id) return 'waiting for a person';
  return c.assignee_id === me ? 'you' : 'a team member';
}

export function ConversationsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useSession().data?.user.id;
  const [filter, setFilter] = useState<Filter>('all');
  const [open, setOpen] = useState<string | null>(null);
  const queue = useQuery({ ...trpc.conversations.handoffQueue.queryOptions({}), refetchInterval: 10_000 });
  const all = useInfiniteQuery(
    trpc.conversations.list.infiniteQueryOptions(filter === 'all' ? {} : { status: filter }, {
      getNextPageParam: (page) => page.next_cursor,
    }),
  );
  const allRows = all.data?.pages.flatMap((page) => page.data) ?? [];
  const [flash, setFlash] = useFlash();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.conversations.pathKey() });
  const assign = useMutation(
    trpc.conversations.assignToMe.mutationOptions({
      onSuccess: (c) => {
        setFlash(`You now handle the conversation with ${c.contact.name ?? c.contact.phone ?? c.id}`);
        void refresh();
      },
    }),
  );
  const resolve = useMutation(
    trpc.conversations.resolve.mutationOptions({
      onSuccess: (c) => {
        setFlash(`Conversation with ${c.contact.name ?? c.contact.phone ?? c.id} resolved`);
        void refresh();
      },
    }),
  );
  const busy = assign.isPending || resolve.isPending;

  const table = (rows: Conversation[], label: string) => (
    <table aria-label={label}>
      <TableHead columns={['Contact', 'Channel', 'Status', 'Handled by', 'Last message']} hidden="Actions" />
      <tbody>
        {rows.map((c) => (
          <tr key={c.id} data-testid={`conversation-${c.id}`}>
            <td>
              {c.contact.name ?? <span className="muted">unknown</span>}
              <div className="muted">{c.contact.phone ?? ''}</div>
              {c.handoff_reason && (
                <div className="muted">Hand-off: {c.handoff_summary ?? c.handoff_reason}</div>
              )}
            </td>
            <td>{c.channel}</td>
            <td>
              <StatusBadge status={c.status} />
            </td>
            <td>{handler(c, me)}</td>
            <td>{formatTime(c.last_message_at)}</td>
            <td className="actions">
              <button
                type="button"
                className="small secondary"
                aria-expanded={open === c.id}
                onClick={() => setOpen(open === c.id ? null : c.id)}
              >
                {open === c.id ? 'Hide messages' : 'Messages'}
              </button>
              {c.status !== 'resolved' && c.assignee_id !== me && (
                <button
                  type="button"
                  className="small"
                  disabled={busy}
                  onClick={() => assign.mutate({ id: c.id })}
                >
                  Assign to me
                </button>
              )}
              {c.status !== 'resolved' && (
                <button
                  type="button"
                  className="small secondary"
                  disabled={busy}
                  onClick={() => resolve.mutate({ id: c.id })}
                >
                  Resolve
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Conversations</h1>
          <p className="muted">
            Chats with your customers. The assistant hands some over to a person: those wait in the queue.
          </p>
        </div>
      </div>
      {flash}
      <ErrorNote error={assign.error ?? resolve.error} />

      <h2>
        Hand-off queue{' '}
        {queue.data && <span className="badge badge-pending_human">{queue.data.data.length}</span>}
      </h2>
      <QueryState
        query={queue}
        rows={queue.data?.data}
        empty={<p className="empty">Nobody is waiting for a person.</p>}
      >
        {(items) => table(items, 'Hand-off queue')}
      </QueryState>

      <div className="page-head" style={{ marginTop: '1.5rem', marginBottom: '0.5rem' }}>
        <h2 style={{ margin: 0 }}>All conversations</h2>
        <div className="row">
          <StatusSelect
            id="conversation-filter"
            value={filter}
            options={FILTERS}
            onChange={setFilter}
            format={(f) => f.replace('_', ' ')}
          />
        </div>
      </div>
      <QueryState
        query={all}
        rows={allRows}
        empty={
          <p className="empty">
            No conversations{filter === 'all' ? '' : ` with status ${filter.replace('_', ' ')}`}.
          </p>
        }
      >
        {() => table(allRows, 'All conversations')}
      </QueryState>
      <LoadMore query={all} />
      {open && <MessagesPanel id={open} />}
    </>
  );
}
