import { LoginForm } from './login-form';

export const metadata = { title: 'Sign in · Switchboard' };

export default function LoginPage() {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <h1>Sign in to Switchboard</h1>
        <LoginForm />
        <p className="muted" style={{ fontSize: '0.85rem', marginTop: '1.25rem' }}>
          Integrating? See the <a href="/api/v1/openapi.json">API reference (OpenAPI)</a>.
        </p>
      </div>
    </main>
  );
}
