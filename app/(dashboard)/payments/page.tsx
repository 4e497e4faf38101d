import { currentViewer } from '@/server/trpc/membership';
import { PaymentsView } from './payments-view';

export const metadata = { title: 'Payments · Switchboard' };

export default async function PaymentsPage() {
  const viewer = await currentViewer();
  return <PaymentsView canChange={viewer?.role === 'admin'} />;
}
