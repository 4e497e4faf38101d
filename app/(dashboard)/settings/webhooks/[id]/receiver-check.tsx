'use client';
/**
 * "Check receiver": asks the server to send the endpoint four signed test requests (a valid one, a
 * bad signature, a stale timestamp, a tampered body) and shows which ones the receiver judged
 * right. A correct receiver accepts only the valid one. Nothing is recorded as a delivery.
 */
import { useTRPC } from '@/app/_components/trpc';
import {
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  Code,
  Table,
  TBody,
  Td,
  THead,
  Tr,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';

const CASE_LABELS: Record<string, string> = {
  valid: 'Valid signature',
  bad_signature: 'Signed with another secret',
  stale_timestamp: 'Timestamp 10 minutes old',
  tampered_body: 'Body changed after signing',
};

export function ReceiverCheck({ id }: { id: string }) {
  const trpc = useTRPC();
  const feedback = useFeedback();
  const check = useAction(trpc.webhooks.verifyWebhookReceiver.mutationOptions(), { feedback });
  const report = check.data;

  return (
    <Card className="mt-6" aria-labelledby="receiver-check-title">
      <CardHeader
        titleId="receiver-check-title"
        title="Receiver check"
        description="Sends four signed test requests to this endpoint. A receiver that verifies signatures and timestamps accepts (2xx) only the valid one. These are not deliveries."
        actions={
          <Button variant="secondary" loading={check.isPending} onClick={() => check.mutate({ id })}>
            Check receiver
          </Button>
        }
      />
      <CardBody>
        {feedback.node}
        {report && (
          <div data-testid="receiver-report">
            <p className="mb-3 flex items-center gap-2 text-sm">
              <Badge tone={report.passed ? 'ok' : 'error'}>{report.passed ? 'passed' : 'failed'}</Badge>
              {report.passed
                ? 'The receiver accepts valid requests and rejects forged, stale and tampered ones.'
                : 'The receiver judged some requests wrong: see below.'}
            </p>
            <Table>
              <THead columns={['Request', 'Expected', 'Answer', 'Result']} />
              <TBody>
                {report.results.map((r) => (
                  <Tr key={r.case} data-testid={`receiver-case-${r.case}`}>
                    <Td>
                      {CASE_LABELS[r.case] ?? r.case}
                      <div className="mt-1 text-sm text-muted">
                        <Code>{r.case}</Code>
                      </div>
                    </Td>
                    <Td>{r.expected === 'accept' ? 'accept (2xx)' : 'reject (non-2xx)'}</Td>
                    <Td>
                      {r.status ?? 'no answer'}
                      {r.status === null && r.error && (
                        <div className="mt-1 text-sm text-muted [overflow-wrap:anywhere]">{r.error}</div>
                      )}
                    </Td>
                    <Td>
                      <Badge tone={r.ok ? 'ok' : 'error'}>{r.ok ? 'ok' : 'wrong'}</Badge>
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          </div>
        )}
      </CardBody>
    </Card>
  );
}
