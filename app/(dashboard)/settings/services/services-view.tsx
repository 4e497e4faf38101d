'use client';
/**
 * Settings › Services: what customers book (duration, buffers, notice, window, grid, price and
 * payment, reminders), on which resources. Admins add, edit and delete them; agents see them.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { CursorList, cursorPages } from '@/app/_components/cursor-list';
import { formatMoney } from '@/app/_components/money';
import { useTRPC } from '@/app/_components/trpc';
import {
  Badge,
  Button,
  ConfirmDialog,
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
import { type Service, ServiceForm } from './service-form';

export function ServicesView() {
  const trpc = useTRPC();
  const { can } = useViewer();
  const write = can('services.write');
  const feedback = useFeedback();
  const [editing, setEditing] = useState<Service | 'new' | null>(null);
  const services = useInfiniteQuery(
    trpc.services.listServices.infiniteQueryOptions({ limit: 50 }, cursorPages),
  );
  const resources = useQuery(trpc.resources.listResources.queryOptions({ limit: 100 }));
  const resourceList = [...(resources.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const names = new Map(resourceList.map((r) => [r.id, r.name]));
  const invalidate = [trpc.services.pathKey(), trpc.bookings.pathKey()];
  // Refusals show in the form, at their fields; the outcome of a save above the list.
  const saved = (verb: string) => ({
    invalidate,
    onSuccess: (s: { name: string }) => {
      setEditing(null);
      feedback.success(`Service ${s.name} ${verb}`);
    },
  });
  const create = useAction(trpc.services.createService.mutationOptions(), saved('created'));
  const update = useAction(trpc.services.updateService.mutationOptions(), saved('saved'));
  const remove = useAction(trpc.services.deleteService.mutationOptions(), {
    feedback,
    success: 'Service deleted',
    invalidate,
  });
  const formError = editing === 'new' ? create.error : update.error;

  return (
    <>
      <PageHeader
        title="Services"
        description="What customers book: how long it takes, when it can be booked, its price and reminders."
        actions={
          write && editing === null ? (
            <Button onClick={() => setEditing('new')}>Add service</Button>
          ) : undefined
        }
      />
      {feedback.node}
      {!write && <p className="mb-4 text-sm text-muted">Only admins change services; you can see them.</p>}
      {editing !== null && (
        <ServiceForm
          key={editing === 'new' ? 'new' : editing.id}
          mode={editing === 'new' ? 'create' : 'edit'}
          initial={editing === 'new' ? undefined : editing}
          resources={resourceList}
          pending={create.isPending || update.isPending}
          error={formError}
          onSubmit={(values) =>
            editing === 'new'
              ? create.mutate(values as Parameters<typeof create.mutate>[0])
              : update.mutate({ ...(values as Parameters<typeof update.mutate>[0]), id: editing.id })
          }
          onCancel={() => {
            setEditing(null);
            create.reset();
            update.reset();
            feedback.clear();
          }}
        />
      )}
      <CursorList
        query={services}
        empty={
          <EmptyState>
            No services yet.{write ? ' Add one to offer free times on the calendar.' : ''}
          </EmptyState>
        }
      >
        {(rows) => (
          <Table>
            <THead
              columns={['Service', 'Time', 'Resources', 'Price', 'Reminders', 'State']}
              actions="Actions"
            />
            <TBody>
              {rows.map((s) => (
                <Tr key={s.id} data-testid={`service-${s.id}`}>
                  <Td className="min-w-32 font-medium">
                    {s.name}
                    {s.public && (
                      <div>
                        <Badge tone="info">public page</Badge>
                      </div>
                    )}
                  </Td>
                  <Td className="text-sm">
                    <div className="whitespace-nowrap">{s.duration_minutes} min</div>
                    <div className="text-muted">
                      {s.buffer_before_minutes || s.buffer_after_minutes
                        ? `buffers ${s.buffer_before_minutes}/${s.buffer_after_minutes} min · `
                        : ''}
                      every {s.slot_interval_minutes} min · {s.booking_window_days} days ahead
                    </div>
                  </Td>
                  <Td className="text-sm">
                    {s.resource_ids.map((id) => (
                      <div key={id}>
                        <Link href={`/settings/resources/${id}`}>{names.get(id) ?? id}</Link>
                      </div>
                    ))}
                  </Td>
                  <Td className="text-sm whitespace-nowrap">
                    {s.price ? (
                      formatMoney(s.price.amount, s.price.currency)
                    ) : (
                      <span className="text-muted">free</span>
                    )}
                    {s.payment !== 'none' && (
                      <div className="text-muted">
                        {s.payment === 'deposit' && s.price && s.deposit_amount !== null
                          ? `deposit ${formatMoney(s.deposit_amount, s.price.currency)}`
                          : 'paid in full'}
                      </div>
                    )}
                  </Td>
                  <Td className="text-sm">
                    {s.reminders.length === 0 ? <span className="text-muted">none</span> : s.reminders.length}
                  </Td>
                  <Td>
                    <StatusBadge status={s.is_active ? 'active' : 'inactive'} />
                  </Td>
                  <Td actions>
                    {write && (
                      <>
                        <Button size="sm" variant="secondary" onClick={() => setEditing(s)}>
                          Edit
                        </Button>
                        <ConfirmDialog
                          trigger={
                            <Button size="sm" variant="danger" disabled={remove.isPending}>
                              Delete
                            </Button>
                          }
                          title={`Delete ${s.name}?`}
                          description="It is no longer offered. Its bookings stay, and keep their time blocked."
                          confirmLabel="Delete service"
                          destructive
                          onConfirm={() => remove.mutateAsync({ id: s.id })}
                        />
                      </>
                    )}
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
