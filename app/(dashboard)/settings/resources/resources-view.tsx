'use client';
/**
 * Settings › Resources: the staff, rooms and equipment bookings are made with, and a form to add one
 * (admins). Each opens its own page: details, weekly hours, time off and calendar feed.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { CursorList, cursorPages } from '@/app/_components/cursor-list';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  EmptyState,
  PageHeader,
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
import { ResourceForm } from './resource-form';
import { summarizeWeek } from './weekly-hours-editor';

export function ResourcesView() {
  const trpc = useTRPC();
  const router = useRouter();
  const { can } = useViewer();
  const write = can('resources.write');
  const [creating, setCreating] = useState(false);
  const feedback = useFeedback();
  const resources = useInfiniteQuery(
    trpc.resources.listResources.infiniteQueryOptions({ limit: 50 }, cursorPages),
  );
  const create = useAction(trpc.resources.createResource.mutationOptions(), {
    invalidate: [trpc.resources.pathKey()],
    onSuccess: (resource) => router.push(`/settings/resources/${resource.id}?created=1`),
  });

  return (
    <>
      <PageHeader
        title="Resources"
        description="Staff, rooms and equipment that bookings are made with: each has a time zone, weekly hours and time off."
        actions={
          write && !creating ? <Button onClick={() => setCreating(true)}>Add resource</Button> : undefined
        }
      />
      {feedback.node}
      {!write && (
        <p className="mb-4 text-sm text-muted">
          Only admins change resources; you can see them and book them.
        </p>
      )}
      {creating && (
        <ResourceForm
          mode="create"
          pending={create.isPending}
          error={create.error}
          onSubmit={(values) => create.mutate(values)}
          onCancel={() => {
            setCreating(false);
            create.reset();
          }}
        />
      )}
      <CursorList
        query={resources}
        empty={
          <EmptyState>
            No resources yet.{write ? ' Add the first one to take bookings on the calendar.' : ''}
          </EmptyState>
        }
      >
        {(rows) => (
          <Table>
            <THead columns={['Name', 'Kind', 'Time zone', 'Weekly hours', 'State']} />
            <TBody>
              {rows.map((r) => (
                <Tr key={r.id} data-testid={`resource-${r.id}`}>
                  <Td className="min-w-36 font-medium">
                    <Link href={`/settings/resources/${r.id}`}>{r.name}</Link>
                  </Td>
                  <Td>{r.kind}</Td>
                  <Td className="whitespace-nowrap">{r.time_zone}</Td>
                  <Td className="max-w-xs text-sm">{summarizeWeek(r.weekly_hours)}</Td>
                  <Td>
                    <StatusBadge status={r.is_active ? 'active' : 'inactive'} />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </CursorList>
    </>
  );
}
