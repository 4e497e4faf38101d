import { AuthCard } from '@/app/_components/auth-card';
import { ResetForm } from './reset-form';

export const metadata = { title: 'Set a new password · Switchboard' };

/** The page behind a password reset link (public: the token is the credential). */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <AuthCard title="Set a new password">
      <ResetForm token={token} />
    </AuthCard>
  );
}
