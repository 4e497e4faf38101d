'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { CursorList, cursorPages } from '@/app/_components/cursor-list';
import { Time } from '@/app/_components/feedback';
import { formatMoney } from '@/app/_components/money';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Card,
  CardBody,
  Code,
  EmptyState,
  Field,
  Input,
  PageHeader,
  Select,
  Table,
  TableCaption,
  TBody,
  Td,
  THead,
  Tr,
} from '@/app/_components/ui';
import { AUDIT_ACTIONS, type AuditActorType } from '@/server/client-safe/audit-actions';

type Action = (typeof AUDIT_ACTIONS)[number];

/** Who acted, as a row shows it: a person by e-mail, a key or an assistant session by id. */
const ACTOR_LABELS: Record<AuditActorType, (id: string, names: Map<string, string>) => string> = {
  user: (id, names) => names.get(id) ?? id,
  api_key: (id) => `API key ${id}`,
  assistant_session: (id) => `Assistant session ${id}`,
};

interface Filters {
  action?: Action;
  actor_id?: string;
  created_after?: string;
  created_before?: string;
}

/** `<input type="datetime-local">` gives local time without a zone: the API wants RFC 3339. */
const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);

export function AuditLogView() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<Filters>({});
  const entries = useInfiniteQuery(
    trpc.auditLog.listAuditLog.infiniteQueryOptions({ limit: 50, ...filters }, cursorPages),
  );
  // Fresh on every visit: someone who joined a moment ago must show by email, not by id.
  const members = useQuery({ ...trpc.members.listMembers.queryOptions(), refetchOnMount: 'always' });
  const names = new Map((members.data?.data ?? []).map((m) => [m.user_id, m.email]));

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    setFilters({
      ...(text('action') ? { action: text('action') as Action } : {}),
      ...(text('actor') ? { actor_id: text('actor') } : {}),
      ...(text('after') ? { created_after: toIso(text('after')) } : {}),
      ...(text('before') ? { created_before: toIso(text('before')) } : {}),
    });
  }

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change people and API keys made to keys, webhooks, channels, members and invitations, everything an AI assistant changed through its tools, each call of an assistant session, and every refund (yours, Stripe’s, the service’s). Entries cannot be changed or deleted."
      />
      <Card className="mb-6">
        <CardBody>
          <form
            onSubmit={apply}
            aria-label="Filter the audit log"
            className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end"
          >
            <Field label="Action">
              <Select name="action" defaultValue="">
                <option value="">all actions</option>
                {AUDIT_ACTIONS.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Actor">
              <Select name="actor" defaultValue="">
                <option value="">anyone</option>
                {(members.data?.data ?? []).map((m) => (
                  <option key={m.user_id} value={m.user_id}>
                    {m.email}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="From">
              <Input name="after" type="datetime-local" />
            </Field>
            <Field label="Until">
              <Input name="before" type="datetime-local" />
            </Field>
            <Button type="submit" variant="secondary">
              Apply filters
            </Button>
          </form>
        </CardBody>
      </Card>
      <CursorList query={entries} empty={<EmptyState>No entries match.</EmptyState>}>
        {(rows) => (
          <Table>
            <TableCaption>Audit entries, newest first</TableCaption>
            <THead columns={['When', 'Action', 'Actor', 'Target', 'Address']} />
            <TBody>
              {rows.map((e) => (
                <Tr key={e.id} data-testid={`audit-${e.action}`}>
                  <Td>
                    <Time value={e.created_at} />
                  </Td>
                  <Td>
                    <Code>{e.action}</Code>
                    {e.tool ? (
                      <span className="text-muted">
                        {' '}
                        by the assistant’s <Code>{e.tool}</Code>
                      </span>
                    ) : null}
                    {typeof e.details.amount === 'number' && typeof e.details.currency === 'string' ? (
                      <span className="text-muted"> {formatMoney(e.details.amount, e.details.currency)}</span>
                    ) : null}
                  </Td>
                  <Td className="[overflow-wrap:anywhere]">
                    {'id' in e.actor
                      ? ACTOR_LABELS[e.actor.type](e.actor.id, names)
                      : e.actor.type === 'stripe'
                        ? 'Stripe'
                        : 'Switchboard'}
                  </Td>
                  <Td className="[overflow-wrap:anywhere]">
                    <span className="text-muted">{e.target.type}</span>{' '}
                    {e.target.type === 'user' ? (names.get(e.target.id) ?? e.target.id) : e.target.id}
                  </Td>
                  <Td>{e.ip ?? <span className="text-muted">—</span>}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </CursorList>
    </>
  );
}
