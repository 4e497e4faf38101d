'use client';
/**
 * The resource's private calendar feed (iCalendar), for admins: the URL to paste into Google Calendar
 * or Apple Calendar, a copy button, and rotating it (the old URL stops working at once) with
 * confirmation.
 */
import { useQuery } from '@tanstack/react-query';
import { Loading } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  Code,
  ConfirmDialog,
  CopyButton,
  ErrorNotice,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';

export function CalendarFeedCard({ resourceId }: { resourceId: string }) {
  const trpc = useTRPC();
  const feedback = useFeedback();
  const feed = useQuery(trpc.resources.getResourceCalendarFeed.queryOptions({ id: resourceId }));
  const rotate = useAction(trpc.resources.rotateResourceCalendarFeed.mutationOptions(), {
    feedback,
    success: 'New calendar URL: the old one no longer works',
    invalidate: [trpc.resources.getResourceCalendarFeed.queryKey({ id: resourceId })],
  });
  return (
    <Card className="mb-6" aria-labelledby="feed-title">
      <CardHeader
        titleId="feed-title"
        title="Calendar feed"
        description="Subscribe to this private URL in Google Calendar or Apple Calendar to see the resource's bookings and time off there. Anyone with the URL can read them: rotate it if it leaked."
      />
      <CardBody className="flex flex-col gap-3">
        {feedback.node}
        {feed.isPending ? (
          <Loading />
        ) : feed.error ? (
          <ErrorNotice error={feed.error} />
        ) : (
          <div className="flex flex-col gap-2">
            <Code
              data-testid="calendar-url"
              className="block max-w-full border border-border bg-panel px-2 py-1.5 break-all"
            >
              {feed.data.calendar_url}
            </Code>
            <div className="flex flex-wrap gap-2">
              <CopyButton value={feed.data.calendar_url} size="sm" label="Copy URL" />
              <ConfirmDialog
                trigger={
                  <Button size="sm" variant="secondary" disabled={rotate.isPending}>
                    Rotate URL
                  </Button>
                }
                title="Rotate the calendar URL?"
                description="The current URL stops working at once: every calendar subscribed to it must be given the new one."
                confirmLabel="Rotate URL"
                destructive
                onConfirm={() => rotate.mutateAsync({ id: resourceId })}
              />
            </div>
          </div>
        )}
      </CardBody>
    </Card>
  );
}
