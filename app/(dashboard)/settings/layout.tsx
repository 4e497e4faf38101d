import type { ReactNode } from 'react';
import { Card, CardBody, CardHeader } from '@/app/_components/ui';
import { currentViewer } from '@/server/trpc/membership';

/** Settings are for admins (CONTRACT §9); the tRPC routers enforce the same rule on every call. */
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const viewer = await currentViewer();
  if (viewer?.role !== 'admin') {
    return (
      <Card aria-labelledby="forbidden-title" className="max-w-xl">
        <CardHeader as="h1" titleId="forbidden-title" title="Admins only" />
        <CardBody className="text-muted">
          403 — your role ({viewer?.role ?? 'none'}) cannot open settings. Ask an admin of this tenant.
        </CardBody>
      </Card>
    );
  }
  return children;
}
