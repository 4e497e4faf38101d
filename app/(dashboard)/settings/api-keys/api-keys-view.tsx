'use client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { formatTime, QueryState, SecretOnce, Time } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Badge,
  Button,
  Card,
  CardBody,
  Code,
  ConfirmDialog,
  EmptyState,
  Field,
  Input,
  PageHeader,
  Select,
  Table,
  TableCaption,
  TBody,
  Td,
  THead,
  Tr,
  useFeedback,
} from '@/app/_components/ui';
import { useAction } from '@/app/_components/use-action';
import { LIMITS } from '@/server/client-safe/limits';
import type { Permission } from '@/server/client-safe/permissions';
import { type Access, AccessPicker, KeyAccess, permissionsFor } from './key-access';

export function ApiKeysView() {
  const trpc = useTRPC();
  const keys = useQuery(trpc.apiKeys.listApiKeys.queryOptions({ limit: 100 }));
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [access, setAccess] = useState<Access>('full');
  const [chosen, setChosen] = useState<Permission[]>([]);
  const feedback = useFeedback();
  const invalidate = [trpc.apiKeys.pathKey()];

  const create = useAction(trpc.apiKeys.createApiKey.mutationOptions(), {
    feedback,
    success: (key) => `Created API key ${key.prefix}`,
    invalidate,
    onSuccess: (key) => setSecret({ label: `New API key “${key.name}”`, value: key.key }),
  });
  const rotate = useAction(trpc.apiKeys.rotateApiKey.mutationOptions(), {
    feedback,
    success: (key) => `Rotated: the old key stops at ${formatTime(key.replaced_key.revokes_at)}`,
    invalidate,
    onSuccess: (key) => setSecret({ label: `Rotated API key “${key.name}”`, value: key.key }),
  });
  const revoke = useAction(trpc.apiKeys.revokeApiKey.mutationOptions(), {
    feedback,
    success: 'API key revoked',
    invalidate,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const permissions = permissionsFor(access, chosen);
    create.mutate(
      { name: String(data.get('name') ?? ''), ...(permissions ? { permissions } : {}) },
      {
        onSuccess: () => {
          form.reset();
          setAccess('full');
          setChosen([]);
        },
      },
    );
  }
  const nothingChosen = access === 'custom' && chosen.length === 0;

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys authenticate server-to-server calls to the REST API. Give each integration a key of its own with only what it needs. Only a key’s prefix is stored in readable form."
      />
      {feedback.node}
      {secret && <SecretOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}

      <Card className="mb-6">
        <CardBody>
          <form onSubmit={submit} aria-label="Create an API key" className="flex flex-col gap-4">
            <Field label="Name" className="max-w-md">
              <Input name="name" placeholder="e.g. Booking widget" required maxLength={LIMITS.apiKeyName} />
            </Field>
            <AccessPicker access={access} onAccess={setAccess} chosen={chosen} onChosen={setChosen} />
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" loading={create.isPending} disabled={nothingChosen}>
                Create key
              </Button>
              {nothingChosen && <span className="text-sm text-muted">Tick at least one permission.</span>}
            </div>
          </form>
        </CardBody>
      </Card>

      <QueryState query={keys} rows={keys.data?.data} empty={<EmptyState>No API keys yet.</EmptyState>}>
        {(items) => (
          <Table>
            <TableCaption>Usable keys</TableCaption>
            <THead
              columns={['Name and access', 'Prefix', 'Created', 'Last used', 'Expires']}
              actions="Actions"
            />
            <TBody>
              {items.map((key) => (
                <Tr key={key.id} data-testid={`api-key-${key.prefix}`}>
                  <Td className="min-w-[11rem]">
                    <div className="[overflow-wrap:anywhere]">{key.name}</div>
                    <KeyAccess permissions={key.permissions} />
                  </Td>
                  <Td>
                    <Code>{key.prefix}</Code>
                  </Td>
                  <Td>
                    <Time value={key.created_at} />
                  </Td>
                  <Td>
                    {key.last_used_at ? (
                      <Time value={key.last_used_at} />
                    ) : (
                      <span className="text-muted">never</span>
                    )}
                  </Td>
                  <Td>
                    {key.revokes_at ? (
                      <Badge tone="warn">stops {formatTime(key.revokes_at)}</Badge>
                    ) : (
                      <Time value={key.expires_at} />
                    )}
                  </Td>
                  <Td actions>
                    <RotateControl
                      disabled={rotate.isPending || Boolean(key.revokes_at)}
                      onRotate={(grace) => rotate.mutate({ id: key.id, grace_seconds: grace })}
                    />
                    <ConfirmDialog
                      trigger={
                        <Button size="sm" variant="danger" disabled={revoke.isPending}>
                          Revoke
                        </Button>
                      }
                      title={`Revoke “${key.name}”?`}
                      description={`Calls using the key ${key.prefix}… fail at once. This cannot be undone.`}
                      confirmLabel="Revoke key"
                      destructive
                      onConfirm={() => revoke.mutateAsync({ id: key.id })}
                    />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </QueryState>
    </>
  );
}

const GRACE_CHOICES = [
  { seconds: 0, label: 'old key: stop now' },
  { seconds: 3600, label: 'old key: 1 h grace' },
  { seconds: 86_400, label: 'old key: 24 h grace' },
];

/** Rotation with an optional grace period for the old key (≤ 24 h, docs/integrators.md, "Credentials"). */
function RotateControl({
  disabled,
  onRotate,
}: {
  disabled: boolean;
  onRotate: (graceSeconds: number) => void;
}) {
  const [grace, setGrace] = useState(0);
  return (
    <span className="inline-flex items-center gap-1.5">
      <Select
        inline
        compact
        aria-label="Old key stops"
        value={grace}
        onChange={(e) => setGrace(Number(e.target.value))}
      >
        {GRACE_CHOICES.map((c) => (
          <option key={c.seconds} value={c.seconds}>
            {c.label}
          </option>
        ))}
      </Select>
      <Button size="sm" variant="secondary" disabled={disabled} onClick={() => onRotate(grace)}>
        Rotate
      </Button>
    </span>
  );
}
