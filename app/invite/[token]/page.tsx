import { AuthCard } from '@/app/_components/auth-card';
import { InviteForm } from './invite-form';

export const metadata = { title: 'Join a team · Switchboard' };

/** The page behind an invitation link (public: the token is the credential). */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <AuthCard title="Join your team">
      <InviteForm token={token} />
    </AuthCard>
  );
}
