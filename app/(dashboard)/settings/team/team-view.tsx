'use client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { QueryState, SecretOnce, Time } from '@/app/_components/feedback';
import { useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Card,
  CardBody,
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
import type { Role } from '@/server/client-safe/statuses';

/** A one-time link to pass on (invitation or password reset): shown once, with a copy button. */
function LinkOnce({
  label,
  url,
  expiresAt,
  onDone,
}: {
  label: string;
  url: string;
  expiresAt: string;
  onDone: () => void;
}) {
  return (
    <SecretOnce
      label={label}
      value={url}
      onDone={onDone}
      testId="one-time-link"
      note={
        <>
          send this link yourself; it works once and is not shown again (valid until{' '}
          <Time value={expiresAt} />
          ).
        </>
      }
    />
  );
}

export function TeamView() {
  const trpc = useTRPC();
  const members = useQuery(trpc.members.listMembers.queryOptions());
  const invitations = useQuery(trpc.members.listInvitations.queryOptions({ limit: 100 }));
  const [link, setLink] = useState<{ label: string; url: string; expiresAt: string } | null>(null);
  const feedback = useFeedback();
  const invalidate = [trpc.members.pathKey()];

  const changeRole = useAction(trpc.members.changeMemberRole.mutationOptions(), {
    feedback,
    success: (m) => `${m.name} is now ${m.role}`,
    invalidate,
  });
  const remove = useAction(trpc.members.removeMember.mutationOptions(), {
    feedback,
    success: 'Member removed',
    invalidate,
  });
  const reset = useAction(trpc.members.createPasswordReset.mutationOptions(), {
    feedback,
    success: 'Password reset link created',
    onSuccess: (r) => setLink({ label: 'Password reset link', url: r.url, expiresAt: r.expires_at }),
  });
  const invite = useAction(trpc.members.createInvitation.mutationOptions(), {
    feedback,
    success: (i) => `Invitation for ${i.email} created`,
    invalidate,
    onSuccess: (i) => setLink({ label: `Invitation for ${i.email}`, url: i.url, expiresAt: i.expires_at }),
  });
  const revoke = useAction(trpc.members.revokeInvitation.mutationOptions(), {
    feedback,
    success: 'Invitation revoked',
    invalidate,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    invite.mutate(
      { email: String(data.get('email') ?? ''), role: String(data.get('role')) as Role },
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <>
      <PageHeader
        title="Team"
        description="Who can sign in to this tenant, and with which role. Agents see bookings, conversations and payments; admins everything."
      />
      {feedback.node}
      {link && <LinkOnce {...link} onDone={() => setLink(null)} />}

      <Card className="mb-6">
        <CardBody>
          <form
            onSubmit={submit}
            aria-label="Invite someone"
            className="flex flex-col gap-3 sm:flex-row sm:items-end"
          >
            <Field label="Email" className="flex-1">
              <Input
                name="email"
                type="email"
                placeholder="colleague@example.com"
                required
                maxLength={LIMITS.email}
              />
            </Field>
            <Field label="Role">
              <Select name="role" defaultValue="agent">
                <option value="agent">agent</option>
                <option value="admin">admin</option>
              </Select>
            </Field>
            <Button type="submit" loading={invite.isPending}>
              Create invitation link
            </Button>
          </form>
        </CardBody>
      </Card>

      <QueryState query={members} rows={members.data?.data} empty={<EmptyState>No members.</EmptyState>}>
        {(rows) => (
          <Table>
            <TableCaption>Members</TableCaption>
            <THead columns={['Name', 'Role', 'Joined']} actions="Actions" />
            <TBody>
              {rows.map((m) => (
                <Tr key={m.user_id} data-testid={`member-${m.email}`}>
                  <Td>
                    {m.name}
                    <div className="text-sm [overflow-wrap:anywhere] text-muted">{m.email}</div>
                  </Td>
                  <Td>
                    <Select
                      inline
                      compact
                      aria-label={`Role of ${m.email}`}
                      value={m.role}
                      disabled={changeRole.isPending}
                      onChange={(e) => changeRole.mutate({ id: m.user_id, role: e.target.value as Role })}
                    >
                      <option value="admin">admin</option>
                      <option value="agent">agent</option>
                    </Select>
                  </Td>
                  <Td>
                    <Time value={m.created_at} />
                  </Td>
                  <Td actions>
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={reset.isPending}
                      onClick={() => reset.mutate({ id: m.user_id })}
                    >
                      Reset link
                    </Button>
                    <ConfirmDialog
                      trigger={
                        <Button size="sm" variant="danger" disabled={remove.isPending}>
                          Remove
                        </Button>
                      }
                      title={`Remove ${m.name} from this tenant?`}
                      description={`${m.email} loses access at once: their sessions for this tenant end. Their account stays.`}
                      confirmLabel="Remove member"
                      destructive
                      onConfirm={() => remove.mutateAsync({ id: m.user_id })}
                    />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </QueryState>

      <div className="mt-8" />
      <QueryState
        query={invitations}
        rows={invitations.data?.data}
        empty={<EmptyState>No pending invitations.</EmptyState>}
      >
        {(rows) => (
          <Table>
            <TableCaption>Pending invitations</TableCaption>
            <THead columns={['Email', 'Role', 'Expires']} actions="Actions" />
            <TBody>
              {rows.map((i) => (
                <Tr key={i.id} data-testid={`invitation-${i.email}`}>
                  <Td className="[overflow-wrap:anywhere]">{i.email}</Td>
                  <Td>{i.role}</Td>
                  <Td>
                    <Time value={i.expires_at} />
                  </Td>
                  <Td actions>
                    <ConfirmDialog
                      trigger={
                        <Button size="sm" variant="danger" disabled={revoke.isPending}>
                          Revoke
                        </Button>
                      }
                      title={`Revoke the invitation for ${i.email}?`}
                      description="The link stops working at once."
                      confirmLabel="Revoke invitation"
                      destructive
                      onConfirm={() => revoke.mutateAsync({ id: i.id })}
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
