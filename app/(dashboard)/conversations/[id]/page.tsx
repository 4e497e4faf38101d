import { ConversationScreen } from './conversation-screen';

export const metadata = { title: 'Conversation · Switchboard' };

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ConversationScreen id={id} />;
}
