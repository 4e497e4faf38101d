'use client';
/**
 * A resource's time off: the coming entries (and the last month's), each removable with confirmation,
 * and a form to add one. Times are typed and shown in the resource's own time zone (converted with
 * the Temporal API, DST included), whatever the viewer's zone.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Loading } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  ConfirmDialog,
  EmptyState,
  ErrorNotice,
  Field,
  fieldErrors,
  formProblem,
  Input,
  Notice,
  Table,
  TBody,
  Td,
  THead,
  Tr,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { addDays, formatDateTime, fromLocalInput, todayIn } from '@/app/_components/zoned-time';

const CLAIMED = /^(start_at|end_at|reason)$/;

export function TimeOffCard({
  resource,
  write,
}: {
  resource: { id: string; name: string; time_zone: string };
  write: boolean;
}) {
  const trpc = useTRPC();
  const zone = resource.time_zone;
  const feedback = useFeedback();
  const [since] = useState(() => new Date(Date.now() - 30 * 86_400_000).toISOString());
  const list = useQuery(trpc.resources.listTimeOff.queryOptions({ id: resource.id, from: since }));
  const [local, setLocal] = useState<string | null>(null);
  // Refusals show in the form, at their fields.
  const create = useAction(trpc.resources.createTimeOff.mutationOptions(), {
    invalidate: [trpc.resources.pathKey(), trpc.bookings.pathKey()],
    onSuccess: (t) =>
      feedback.success(
        `Time off added: ${formatDateTime(t.start_at, zone)} to ${formatDateTime(t.end_at, zone)}`,
      ),
  });
  const remove = useAction(trpc.resources.deleteTimeOff.mutationOptions(), {
    feedback,
    success: 'Time off removed',
    invalidate: [trpc.resources.pathKey(), trpc.bookings.pathKey()],
  });
  const errors = fieldErrors(create.error, (path) => CLAIMED.test(path));
  const problem = formProblem(create.error, errors);
  const tomorrow = addDays(todayIn(zone), 1);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const start = fromLocalInput(String(data.get('start') ?? ''), zone);
    const end = fromLocalInput(String(data.get('end') ?? ''), zone);
    if (!start || !end) {
      setLocal('Give a start and an end date and time.');
      return;
    }
    setLocal(null);
    const reason = String(data.get('reason') ?? '').trim();
    create.mutate(
      { id: resource.id, start_at: start, end_at: end, ...(reason ? { reason } : {}) },
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <Card className="mb-6" aria-labelledby="time-off-title">
      <CardHeader
        titleId="time-off-title"
        title="Time off"
        description={`Holidays, leave, maintenance: no free times then. Times in ${zone}. Bookings already made in that time stay.`}
      />
      <CardBody className="flex flex-col gap-4">
        {feedback.node}
        {list.isPending ? (
          <Loading />
        ) : list.error ? (
          <ErrorNotice error={list.error} />
        ) : list.data.data.length === 0 ? (
          <EmptyState>No time off planned.</EmptyState>
        ) : (
          <Table>
            <THead columns={['From', 'Until', 'Reason']} actions="Actions" />
            <TBody>
              {list.data.data.map((t) => (
                <Tr key={t.id} data-testid={`time-off-${t.id}`}>
                  <Td className="whitespace-nowrap">{formatDateTime(t.start_at, zone)}</Td>
                  <Td className="whitespace-nowrap">{formatDateTime(t.end_at, zone)}</Td>
                  <Td>{t.reason ?? <span className="text-muted">—</span>}</Td>
                  <Td actions>
                    {write && (
                      <ConfirmDialog
                        trigger={
                          <Button size="sm" variant="secondary" disabled={remove.isPending}>
                            Remove
                          </Button>
                        }
                        title="Remove this time off?"
                        description={`${resource.name} becomes bookable again from ${formatDateTime(t.start_at, zone)} to ${formatDateTime(t.end_at, zone)} (within its weekly hours).`}
                        confirmLabel="Remove time off"
                        onConfirm={() => remove.mutateAsync({ id: resource.id, time_off_id: t.id })}
                      />
                    )}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
        {write && (
          <form
            onSubmit={submit}
            noValidate
            aria-label="Add time off"
            className="flex max-w-3xl flex-col gap-3"
          >
            <h3 className="font-semibold">Add time off</h3>
            <div className="grid gap-3 sm:grid-cols-2">
              <Field label={`From (${zone})`} error={errors.at('start_at')}>
                <Input name="start" type="datetime-local" required defaultValue={`${tomorrow}T09:00`} />
              </Field>
              <Field label={`Until (${zone})`} error={errors.at('end_at')}>
                <Input name="end" type="datetime-local" required defaultValue={`${tomorrow}T17:00`} />
              </Field>
            </div>
            <Field label="Reason" hint="Optional, e.g. Holiday." error={errors.at('reason')}>
              <Input name="reason" maxLength={500} />
            </Field>
            {(local || problem) && (
              <Notice tone="error" role="alert">
                {local ?? problem}
              </Notice>
            )}
            <div>
              <Button type="submit" loading={create.isPending}>
                Add time off
              </Button>
            </div>
          </form>
        )}
      </CardBody>
    </Card>
  );
}
