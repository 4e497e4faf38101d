'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { CursorList, cursorPages } from '@/app/_components/cursor-list';
import { QueryState, Time } from '@/app/_components/feedback';
import { StatusSelect } from '@/app/_components/status-select';
import { useTRPC } from '@/app/_components/trpc';
import {
  Badge,
  Button,
  EmptyState,
  PageHeader,
  SectionHeader,
  StatusBadge,
  Table,
  TBody,
  Td,
  THead,
  Tr,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { useViewer } from '@/app/_components/viewer';
import { CONVERSATION_STATUSES } from '@/server/client-safe/statuses';

const FILTERS = ['all', ...CONVERSATION_STATUSES] as const;
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
  handoff_overdue_at: string | null;
  last_message_at: string | null;
};

function handler(c: Conversation, me: string | undefined): string {
  if (c.handled_by !== 'human') return 'assistant';
  if (!c.assignee_id) return 'waiting for a person';
  return c.assignee_id === me ? 'you' : 'a team member';
}

const contactOf = (c: Conversation) => c.contact.name ?? c.contact.phone ?? c.id;

export function ConversationsView() {
  const trpc = useTRPC();
  const me = useViewer().userId;
  const [filter, setFilter] = useState<Filter>('all');
  // The queue is the list filtered to conversations waiting for a person.
  const queue = useQuery({
    ...trpc.conversations.listConversations.queryOptions({ status: 'pending_human', limit: 50 }),
    refetchInterval: 10_000,
  });
  const all = useInfiniteQuery(
    trpc.conversations.listConversations.infiniteQueryOptions(
      { limit: 50, ...(filter === 'all' ? {} : { status: filter }) },
      cursorPages,
    ),
  );
  const feedback = useFeedback();
  const invalidate = [trpc.conversations.pathKey()];
  const assign = useAction(trpc.conversations.assignConversation.mutationOptions(), {
    feedback,
    success: (c) => `You now handle the conversation with ${contactOf(c)}`,
    invalidate,
  });
  const resolve = useAction(trpc.conversations.resolveConversation.mutationOptions(), {
    feedback,
    success: (c) => `Conversation with ${contactOf(c)} resolved`,
    invalidate,
  });
  const busy = assign.isPending || resolve.isPending;

  const table = (rows: Conversation[], label: string) => (
    <Table aria-label={label}>
      <THead columns={['Contact', 'Channel', 'Status', 'Handled by', 'Last message']} actions="Actions" />
      <TBody>
        {rows.map((c) => (
          <Tr key={c.id} data-testid={`conversation-${c.id}`}>
            <Td>
              <Link href={`/conversations/${c.id}`} className="font-medium text-accent underline">
                {c.contact.name ?? c.contact.phone ?? 'Unknown contact'}
              </Link>
              {c.handoff_overdue_at && c.status === 'pending_human' && (
                <>
                  {' '}
                  <Badge tone="error">Overdue</Badge>
                </>
              )}
              {c.contact.name && <div className="text-sm text-muted">{c.contact.phone ?? ''}</div>}
              {c.handoff_reason && (
                <div className="text-sm text-muted">Hand-off: {c.handoff_summary ?? c.handoff_reason}</div>
              )}
            </Td>
            <Td>{c.channel}</Td>
            <Td>
              <StatusBadge status={c.status} />
            </Td>
            <Td>{handler(c, me)}</Td>
            <Td>
              <Time value={c.last_message_at} />
            </Td>
            <Td actions>
              {c.status !== 'resolved' && c.assignee_id !== me && (
                <Button size="sm" disabled={busy} onClick={() => assign.mutate({ id: c.id, user_id: me })}>
                  Assign to me
                </Button>
              )}
              {c.status !== 'resolved' && (
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={busy}
                  onClick={() => resolve.mutate({ id: c.id })}
                >
                  Resolve
                </Button>
              )}
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );

  return (
    <>
      <PageHeader
        title="Conversations"
        description="Chats with your customers. The assistant hands some over to a person: those wait in the queue."
      />
      {feedback.node}

      <SectionHeader
        className="mt-0"
        title={<>Hand-off queue {queue.data && <Badge tone="warn">{queue.data.data.length}</Badge>}</>}
      />
      <QueryState
        query={queue}
        rows={queue.data?.data}
        empty={<EmptyState>Nobody is waiting for a person.</EmptyState>}
      >
        {(items) => table(items, 'Hand-off queue')}
      </QueryState>

      <SectionHeader
        title="All conversations"
        actions={
          <StatusSelect
            id="conversation-filter"
            value={filter}
            options={FILTERS}
            onChange={setFilter}
            format={(f) => f.replace('_', ' ')}
          />
        }
      />
      <CursorList
        query={all}
        empty={
          <EmptyState>
            No conversations{filter === 'all' ? '' : ` with status ${filter.replace('_', ' ')}`}.
          </EmptyState>
        }
      >
        {(rows) => table(rows, 'All conversations')}
      </CursorList>
    </>
  );
}
