'use client';
/**
 * Create or edit a resource: name, kind, time zone (every IANA zone this browser knows), active, and
 * its weekly hours. The server's field errors show at their fields (the weekly hours at the interval).
 */
import { type FormEvent, useMemo, useState } from 'react';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  Checkbox,
  Field,
  fieldErrors,
  formProblem,
  Input,
  Notice,
  Select,
} from '@/app/_components/ui';
import { browserTimeZone, timeZoneOptions } from '@/app/_components/zoned-time';
import { officeHours, type WeeklyHours, WeeklyHoursEditor, weekFrom } from './weekly-hours-editor';

export const KINDS = [
  { value: 'staff', label: 'Staff (a person)' },
  { value: 'room', label: 'Room' },
  { value: 'equipment', label: 'Equipment' },
] as const;
export type ResourceKind = (typeof KINDS)[number]['value'];

export interface ResourceValues {
  name: string;
  kind: ResourceKind;
  time_zone: string;
  is_active: boolean;
  weekly_hours: WeeklyHours;
}

const CLAIMED = /^(name|kind|time_zone|is_active|weekly_hours)(\.|\[|$)/;

export function ResourceForm({
  mode,
  initial,
  pending,
  error,
  readOnly = false,
  onSubmit,
  onCancel,
}: {
  mode: 'create' | 'edit';
  initial?: {
    name: string;
    kind: ResourceKind;
    time_zone: string;
    is_active: boolean;
    weekly_hours: Record<string, { start: string; end: string }[]>;
  };
  pending: boolean;
  /** The last failed save (its field errors show at the fields). */
  error: unknown;
  readOnly?: boolean;
  onSubmit: (values: ResourceValues) => void;
  onCancel?: () => void;
}) {
  const [hours, setHours] = useState<WeeklyHours>(() =>
    initial ? weekFrom(initial.weekly_hours) : officeHours(),
  );
  const [zone, setZone] = useState(() => initial?.time_zone ?? browserTimeZone());
  const zones = useMemo(() => timeZoneOptions(zone), [zone]);
  const errors = fieldErrors(error, (path) => CLAIMED.test(path));
  const problem = formProblem(error, errors);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    onSubmit({
      name: String(data.get('name') ?? '').trim(),
      kind: String(data.get('kind') ?? 'staff') as ResourceKind,
      time_zone: zone,
      is_active: data.get('is_active') === 'on',
      weekly_hours: hours,
    });
  }

  return (
    <Card className="mb-6">
      <CardHeader title={mode === 'create' ? 'New resource' : 'Details and weekly hours'} />
      <CardBody>
        <form
          onSubmit={submit}
          noValidate
          aria-label={mode === 'create' ? 'New resource' : 'Edit resource'}
          className="flex max-w-3xl flex-col gap-4"
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Name" error={errors.at('name')} hint="A person, a room or a piece of equipment.">
              <Input
                name="name"
                required
                maxLength={200}
                defaultValue={initial?.name ?? ''}
                disabled={readOnly}
              />
            </Field>
            <Field label="Kind" error={errors.at('kind')}>
              <Select name="kind" defaultValue={initial?.kind ?? 'staff'} disabled={readOnly}>
                {KINDS.map((k) => (
                  <option key={k.value} value={k.value}>
                    {k.label}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <Field
            label="Time zone"
            error={errors.at('time_zone')}
            hint="Where the resource works: its weekly hours are local times there, and stay so across daylight-saving changes."
          >
            <Select
              name="time_zone"
              value={zone}
              onChange={(e) => setZone(e.target.value)}
              disabled={readOnly}
            >
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z.replaceAll('_', ' ')}
                </option>
              ))}
            </Select>
          </Field>
          <WeeklyHoursEditor value={hours} onChange={setHours} errorAt={errors.at} disabled={readOnly} />
          <Checkbox
            name="is_active"
            defaultChecked={initial?.is_active ?? true}
            disabled={readOnly}
            label="Active: offers free times and takes bookings"
          />
          {errors.at('is_active') && <p className="text-sm text-error">{errors.at('is_active')}</p>}
          {problem && (
            <Notice tone="error" role="alert">
              {problem}
            </Notice>
          )}
          {!readOnly && (
            <div className="flex flex-wrap gap-2">
              <Button type="submit" loading={pending}>
                {mode === 'create' ? 'Create resource' : 'Save changes'}
              </Button>
              {onCancel && (
                <Button variant="secondary" onClick={onCancel}>
                  Cancel
                </Button>
              )}
            </div>
          )}
        </form>
      </CardBody>
    </Card>
  );
}
