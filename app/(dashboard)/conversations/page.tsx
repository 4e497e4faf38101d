import { ConversationsView } from './conversations-view';

export const metadata = { title: 'Conversations · Switchboard' };

export default function ConversationsPage() {
  return <ConversationsView />;
}
