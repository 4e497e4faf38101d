import { AuthCard } from '@/app/_components/auth-card';
import { LoginForm } from './login-form';

export const metadata = { title: 'Sign in · Switchboard' };

export default function LoginPage() {
  return (
    <AuthCard title="Sign in to Switchboard">
      <LoginForm />
      <p className="mt-5 text-sm text-muted">
        Integrating? See the <a href="/api/v1/openapi.json">API reference (OpenAPI)</a>.
      </p>
    </AuthCard>
  );
}
