'use client';
/** The parts the invitation and password-reset pages share: the new password, and a dead link. */
import { Field, Input, Notice } from '@/app/_components/ui';

/** The answer for a used, revoked, expired or unknown link. */
export function NoLongerValid({ what }: { what: string }) {
  return (
    <Notice tone="error" role="alert">
      This {what} link is no longer valid: it was already used, revoked, or it expired. Ask an admin of your
      team for a new one.
    </Notice>
  );
}

/** A new password typed twice (inputs `password` and `confirm`), with the service's length rules. */
export function NewPasswordFields({ label, repeatLabel }: { label: string; repeatLabel: string }) {
  const input = (name: string) => (
    <Input name={name} type="password" autoComplete="new-password" required minLength={8} maxLength={1024} />
  );
  return (
    <>
      <Field label={label} id="password" hint="At least 8 characters.">
        {input('password')}
      </Field>
      <Field label={repeatLabel} id="confirm">
        {input('confirm')}
      </Field>
    </>
  );
}

/** The new password of a form with NewPasswordFields, or null when the two entries differ. */
export function newPasswordOf(form: FormData): string | null {
  const password = String(form.get('password') ?? '');
  return password === String(form.get('confirm') ?? '') ? password : null;
}
