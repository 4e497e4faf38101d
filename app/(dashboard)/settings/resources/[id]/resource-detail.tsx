'use client';
/**
 * One resource: its details and weekly hours (admins edit them), its time off (typed in the resource's
 * zone), its private calendar feed (admins: the URL to copy, rotated with confirmation) and deleting it
 * (refused while it has future bookings: 409 resource_in_use, explained).
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { Loading } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  ConfirmDialog,
  ErrorNotice,
  errorCode,
  Notice,
  PageHeader,
  StatusBadge,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { useViewer } from '@/app/_components/viewer';
import { ResourceForm } from '../resource-form';
import { CalendarFeedCard } from './calendar-feed';
import { TimeOffCard } from './time-off';

export function ResourceDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const { can } = useViewer();
  const write = can('resources.write');
  const feedback = useFeedback();
  const resource = useQuery(trpc.resources.getResource.queryOptions({ id }));
  // Refusals show in the form, at their fields.
  const update = useAction(trpc.resources.updateResource.mutationOptions(), {
    invalidate: [trpc.resources.pathKey(), trpc.bookings.pathKey()],
    onSuccess: (r) => feedback.success(`${r.name} saved`),
  });
  const remove = useAction(trpc.resources.deleteResource.mutationOptions(), {
    invalidate: [trpc.resources.pathKey()],
    onSuccess: () => router.push('/settings/resources'),
  });

  if (resource.isPending) return <Loading />;
  if (resource.error) {
    return (
      <>
        <BackLink />
        <ErrorNotice error={resource.error} />
      </>
    );
  }
  const r = resource.data;
  return (
    <>
      <BackLink />
      <PageHeader
        title={r.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={r.is_active ? 'active' : 'inactive'} />
            <span>
              {r.kind} · {r.time_zone}
            </span>
            <Link href={`/bookings?r=${r.id}`}>Open its calendar</Link>
          </span>
        }
      />
      {params.get('created') === '1' && (
        <Notice tone="success" className="mb-4">
          {r.name} was created. Add its time off below, or add it to a service in Settings › Services.
        </Notice>
      )}
      {feedback.node}
      <ResourceForm
        key={r.updated_at}
        mode="edit"
        initial={r}
        readOnly={!write}
        pending={update.isPending}
        error={update.error}
        onSubmit={(values) => update.mutate({ id: r.id, ...values })}
      />
      <TimeOffCard resource={r} write={write} />
      {write && <CalendarFeedCard resourceId={r.id} />}
      {write && (
        <Card className="mb-6 border-error/40">
          <CardHeader
            title="Delete this resource"
            description="Its time off goes with it and services stop offering it. Refused while it has future pending or confirmed bookings: cancel or move them first."
          />
          <CardBody className="flex flex-col gap-3">
            {errorCode(remove.error) === 'resource_in_use' ? (
              <Notice tone="error" role="alert">
                {r.name} still has future pending or confirmed bookings, so it cannot be deleted. Cancel or
                reschedule them on <Link href={`/bookings?r=${r.id}`}>its calendar</Link> first, or make it
                inactive above to stop new bookings.
              </Notice>
            ) : (
              <ErrorNotice error={remove.error} />
            )}
            <div>
              <ConfirmDialog
                trigger={
                  <Button variant="danger" disabled={remove.isPending}>
                    Delete resource
                  </Button>
                }
                title={`Delete ${r.name}?`}
                description="This cannot be undone. Its time off and calendar feed go with it."
                confirmLabel="Delete resource"
                destructive
                onConfirm={() => remove.mutateAsync({ id: r.id }).catch(() => undefined)}
              />
            </div>
          </CardBody>
        </Card>
      )}
    </>
  );
}

function BackLink() {
  return (
    <p className="mb-3 text-sm">
      <Link href="/settings/resources">← Resources</Link>
    </p>
  );
}
