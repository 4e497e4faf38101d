import { WebhooksView } from './webhooks-view';

export const metadata = { title: 'Webhooks · Switchboard' };

export default function WebhooksPage() {
  return <WebhooksView />;
}
