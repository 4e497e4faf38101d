'use client';
/**
 * Create or edit a service: every field of the API's service with its unit (duration and buffers in
 * minutes, notice in minutes, hours or days, window in days, the slot grid step), its price in its
 * currency's major units, the payment it takes (none, a deposit, or the full price), and up to three
 * WhatsApp template reminders. The server's field errors (`price.amount`, `reminders[1].channel_id`, …)
 * show at their fields.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { minorToDecimal, parseMoney } from '@/app/_components/money';
import { type RouterOutputs, useTRPC } from '@/app/_components/trpc';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  Checkbox,
  CopyButton,
  Field,
  fieldErrors,
  formProblem,
  Input,
  Notice,
  Select,
} from '@/app/_components/ui';
import { useViewer } from '@/app/_components/viewer';

export type Service = RouterOutputs['services']['listServices']['data'][number];
type Resource = RouterOutputs['resources']['listResources']['data'][number];
type Payment = Service['payment'];

const MAX_REMINDERS = 3;
const CLAIMED =
  /^(name|duration_minutes|resource_ids|buffer_before_minutes|buffer_after_minutes|min_notice_minutes|booking_window_days|slot_interval_minutes|price|payment|deposit_amount|reminders|is_active|public|requires_confirmation|cancel_notice_minutes)(\.|\[|$)/;

const UNITS = [
  { value: 1, label: 'minutes' },
  { value: 60, label: 'hours' },
  { value: 1440, label: 'days' },
] as const;

/** A number of minutes shown in the largest unit that divides it. */
function splitMinutes(minutes: number): { amount: string; unit: number } {
  for (const unit of [1440, 60])
    if (minutes > 0 && minutes % unit === 0) return { amount: String(minutes / unit), unit };
  return { amount: String(minutes), unit: 1 };
}

let drafted = 0;
/** A key for a reminder of the form (reminders have no id of their own). */
const draftKey = () => `reminder-${++drafted}`;

interface ReminderDraft {
  key: string;
  amount: string;
  unit: number;
  channel_id: string;
  template_name: string;
  template_language: string;
}

interface Draft {
  name: string;
  duration: string;
  resource_ids: string[];
  buffer_before: string;
  buffer_after: string;
  notice_amount: string;
  notice_unit: number;
  window_days: string;
  interval: string;
  price: string;
  currency: string;
  payment: Payment;
  deposit: string;
  reminders: ReminderDraft[];
  is_active: boolean;
  public: boolean;
  requires_confirmation: boolean;
  cancel_amount: string;
  cancel_unit: number;
}

function draftOf(service?: Service): Draft {
  const notice = splitMinutes(service?.min_notice_minutes ?? 0);
  const cancelNotice = splitMinutes(service?.cancel_notice_minutes ?? 0);
  const currency = service?.price?.currency ?? 'EUR';
  return {
    name: service?.name ?? '',
    duration: String(service?.duration_minutes ?? 30),
    resource_ids: service?.resource_ids ?? [],
    buffer_before: String(service?.buffer_before_minutes ?? 0),
    buffer_after: String(service?.buffer_after_minutes ?? 0),
    notice_amount: notice.amount,
    notice_unit: notice.unit,
    window_days: String(service?.booking_window_days ?? 90),
    // The API answers the duration when no step was set; the form shows it empty then.
    interval:
      service && service.slot_interval_minutes !== service.duration_minutes
        ? String(service.slot_interval_minutes)
        : '',
    price: service?.price ? minorToDecimal(service.price.amount, currency) : '',
    currency,
    payment: service?.payment ?? 'none',
    deposit: service?.deposit_amount != null ? minorToDecimal(service.deposit_amount, currency) : '',
    reminders: (service?.reminders ?? []).map((r) => {
      const before = splitMinutes(r.before_minutes);
      return {
        key: draftKey(),
        amount: before.amount,
        unit: before.unit,
        channel_id: r.channel_id,
        template_name: r.template.name,
        template_language: r.template.language,
      };
    }),
    is_active: service?.is_active ?? true,
    public: service?.public ?? false,
    requires_confirmation: service?.requires_confirmation ?? false,
    cancel_amount: cancelNotice.amount,
    cancel_unit: cancelNotice.unit,
  };
}

/** A whole number typed in a field, or the text itself so the server names the field that is wrong. */
const whole = (text: string): number => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

export function ServiceForm({
  mode,
  initial,
  resources,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  mode: 'create' | 'edit';
  initial?: Service;
  resources: Resource[];
  pending: boolean;
  error: unknown;
  onSubmit: (values: Record<string, unknown>) => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const { can } = useViewer();
  const channels = useQuery({
    ...trpc.channels.listChannels.queryOptions({ limit: 100 }),
    enabled: can('channels.read'),
  });
  const whatsapp = (channels.data?.data ?? []).filter((c) => c.type === 'whatsapp');
  const currencies = useMemo(() => {
    try {
      return Intl.supportedValuesOf('currency');
    } catch {
      return ['EUR', 'USD', 'GBP'];
    }
  }, []);
  const [d, setD] = useState<Draft>(() => draftOf(initial));
  const [local, setLocal] = useState<Record<string, string>>({});
  const set = (patch: Partial<Draft>) => setD((prev) => ({ ...prev, ...patch }));
  const setReminder = (i: number, patch: Partial<ReminderDraft>) =>
    set({ reminders: d.reminders.map((r, k) => (k === i ? { ...r, ...patch } : r)) });
  const server = fieldErrors(error, (path) => CLAIMED.test(path));
  const at = (path: string) => local[path] ?? server.at(path);
  const problem = formProblem(error, server);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems: Record<string, string> = {};
    const priceRead = d.price.trim() === '' ? null : parseMoney(d.price, d.currency);
    if (priceRead && !priceRead.ok) problems['price.amount'] = priceRead.message;
    const price = priceRead?.ok ? priceRead.amount : null;
    const depositRead =
      d.payment === 'deposit' && d.deposit.trim() !== '' ? parseMoney(d.deposit, d.currency) : null;
    if (depositRead && !depositRead.ok) problems.deposit_amount = depositRead.message;
    const deposit = depositRead?.ok ? depositRead.amount : null;
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    onSubmit({
      name: d.name.trim(),
      duration_minutes: whole(d.duration),
      resource_ids: d.resource_ids,
      buffer_before_minutes: whole(d.buffer_before),
      buffer_after_minutes: whole(d.buffer_after),
      min_notice_minutes: whole(d.notice_amount) * d.notice_unit,
      booking_window_days: whole(d.window_days),
      slot_interval_minutes: d.interval.trim() === '' ? null : whole(d.interval),
      price: price === null ? null : { amount: price, currency: d.currency },
      payment: d.payment,
      deposit_amount: d.payment === 'deposit' ? deposit : null,
      reminders: d.reminders.map((r) => ({
        before_minutes: whole(r.amount) * r.unit,
        channel_id: r.channel_id,
        template: { name: r.template_name.trim(), language: r.template_language.trim() },
      })),
      is_active: d.is_active,
      public: d.public,
      requires_confirmation: d.requires_confirmation,
      cancel_notice_minutes: whole(d.cancel_amount) * d.cancel_unit,
    });
  }

  return (
    <Card className="mb-6">
      <CardHeader title={mode === 'create' ? 'New service' : `Edit ${initial?.name ?? 'service'}`} />
      <CardBody>
        <form
          onSubmit={submit}
          noValidate
          aria-label={mode === 'create' ? 'New service' : 'Edit service'}
          className="flex max-w-3xl flex-col gap-5"
        >
          <Group title="What is booked">
            <Field label="Name" error={at('name')} hint="What customers book, e.g. Check-up.">
              <Input
                value={d.name}
                onChange={(e) => set({ name: e.target.value })}
                maxLength={200}
                required
              />
            </Field>
            <fieldset className="min-w-0">
              <legend className="text-sm font-semibold">Resources</legend>
              <p className="mb-1 text-xs text-muted">
                Who or what can take it: each booking goes to one of them.
              </p>
              {resources.length === 0 ? (
                <p className="text-sm text-muted">No resources yet: add one in Settings › Resources first.</p>
              ) : (
                <div className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,13rem),1fr))] gap-x-4 gap-y-1.5 rounded-control border border-border p-3">
                  {resources.map((r) => (
                    <Checkbox
                      key={r.id}
                      label={`${r.name}${r.is_active ? '' : ' (inactive)'}`}
                      checked={d.resource_ids.includes(r.id)}
                      onChange={(e) =>
                        set({
                          resource_ids: e.target.checked
                            ? [...d.resource_ids, r.id]
                            : d.resource_ids.filter((x) => x !== r.id),
                        })
                      }
                    />
                  ))}
                </div>
              )}
              {at('resource_ids') && (
                <p className="mt-1 text-sm font-medium text-error">{at('resource_ids')}</p>
              )}
            </fieldset>
          </Group>

          <Group title="Time">
            <div className="grid gap-4 sm:grid-cols-3">
              <NumberField
                label="Duration"
                unit="minutes"
                hint="5 to 1440."
                value={d.duration}
                error={at('duration_minutes')}
                onChange={(v) => set({ duration: v })}
              />
              <NumberField
                label="Buffer before"
                unit="minutes"
                hint="0 to 240: kept free before."
                value={d.buffer_before}
                error={at('buffer_before_minutes')}
                onChange={(v) => set({ buffer_before: v })}
              />
              <NumberField
                label="Buffer after"
                unit="minutes"
                hint="0 to 240: kept free after."
                value={d.buffer_after}
                error={at('buffer_after_minutes')}
                onChange={(v) => set({ buffer_after: v })}
              />
            </div>
            <div className="grid gap-4 sm:grid-cols-3">
              <DurationField
                label="Minimum notice"
                unitId="min-notice-unit"
                error={at('min_notice_minutes')}
                hint="How soon before its start a time can be booked."
                amount={d.notice_amount}
                unit={d.notice_unit}
                onChange={(amount, unit) => set({ notice_amount: amount, notice_unit: unit })}
              />
              <NumberField
                label="Booking window"
                unit="days"
                hint="How far ahead: 1 to 730."
                value={d.window_days}
                error={at('booking_window_days')}
                onChange={(v) => set({ window_days: v })}
              />
              <NumberField
                label="Slot grid"
                unit="minutes"
                hint="Free times start this often; empty: every duration."
                placeholder={d.duration || 'duration'}
                value={d.interval}
                error={at('slot_interval_minutes')}
                onChange={(v) => set({ interval: v })}
              />
            </div>
          </Group>

          <Group title="Price and payment">
            <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_10rem]">
              <Field
                label={`Price (${d.currency})`}
                error={at('price.amount') ?? at('price')}
                hint="Empty: no price (payment must be none)."
              >
                <Input
                  inputMode="decimal"
                  value={d.price}
                  placeholder={minorToDecimal(4500, d.currency)}
                  onChange={(e) => set({ price: e.target.value })}
                />
              </Field>
              <Field label="Currency" error={at('price.currency')}>
                <Select value={d.currency} onChange={(e) => set({ currency: e.target.value })}>
                  {currencies.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </Select>
              </Field>
            </div>
            <fieldset className="min-w-0">
              <legend className="text-sm font-semibold">Payment</legend>
              <div className="mt-1 flex flex-col gap-1.5 sm:flex-row sm:gap-4">
                {(
                  [
                    ['none', 'None: booked without paying'],
                    ['deposit', 'A deposit'],
                    ['full', 'The full price'],
                  ] as const
                ).map(([value, label]) => (
                  <label key={value} className="flex cursor-pointer items-center gap-2 text-sm">
                    <input
                      type="radio"
                      name="payment"
                      value={value}
                      checked={d.payment === value}
                      onChange={() => set({ payment: value })}
                      className="size-4 accent-accent"
                    />
                    {label}
                  </label>
                ))}
              </div>
              <p className="mt-1 text-xs text-muted">
                With a payment, a booking is held until it is paid (a deposit or the full price needs a
                price).
              </p>
              {at('payment') && <p className="mt-1 text-sm font-medium text-error">{at('payment')}</p>}
            </fieldset>
            {d.payment === 'deposit' && (
              <Field
                label={`Deposit (${d.currency})`}
                error={at('deposit_amount')}
                hint="At most the price."
                className="max-w-xs"
              >
                <Input
                  inputMode="decimal"
                  value={d.deposit}
                  onChange={(e) => set({ deposit: e.target.value })}
                />
              </Field>
            )}
          </Group>

          <Group title={`Reminders (at most ${MAX_REMINDERS})`}>
            <p className="-mt-2 text-xs text-muted">
              A WhatsApp template sent to the customer before a confirmed booking (its body parameters:
              customer name, service name and the start in the resource’s time zone).
            </p>
            {at('reminders') && <p className="text-sm font-medium text-error">{at('reminders')}</p>}
            {d.reminders.map((r, i) => {
              const path = `reminders[${i}]`;
              return (
                <fieldset
                  key={r.key}
                  className="flex min-w-0 flex-col gap-3 rounded-control border border-border p-3"
                >
                  <legend className="px-1 text-sm font-semibold">Reminder {i + 1}</legend>
                  <div className="grid gap-3 sm:grid-cols-2">
                    <Field label="Send before the start" error={at(`${path}.before_minutes`)}>
                      <div className="flex gap-2">
                        <Input
                          type="number"
                          min={1}
                          inputMode="numeric"
                          value={r.amount}
                          onChange={(e) => setReminder(i, { amount: e.target.value })}
                          className="max-w-24"
                        />
                        <Select
                          id={`${r.key}-unit`}
                          aria-label={`Reminder ${i + 1} unit`}
                          value={r.unit}
                          onChange={(e) => setReminder(i, { unit: Number(e.target.value) })}
                          inline
                        >
                          {UNITS.map((u) => (
                            <option key={u.value} value={u.value}>
                              {u.label}
                            </option>
                          ))}
                        </Select>
                      </div>
                    </Field>
                    <Field label="WhatsApp channel" error={at(`${path}.channel_id`)}>
                      {can('channels.read') ? (
                        <Select
                          value={r.channel_id}
                          onChange={(e) => setReminder(i, { channel_id: e.target.value })}
                        >
                          <option value="">Choose a channel</option>
                          {whatsapp.map((c) => (
                            <option key={c.id} value={c.id}>
                              {c.display_name ?? c.phone_number_id ?? c.id}
                            </option>
                          ))}
                          {r.channel_id && !whatsapp.some((c) => c.id === r.channel_id) && (
                            <option value={r.channel_id}>{r.channel_id}</option>
                          )}
                        </Select>
                      ) : (
                        <Input
                          value={r.channel_id}
                          onChange={(e) => setReminder(i, { channel_id: e.target.value })}
                        />
                      )}
                    </Field>
                    <Field
                      label="Template name"
                      hint="As approved in Meta, e.g. appointment_reminder."
                      error={at(`${path}.template.name`)}
                    >
                      <Input
                        value={r.template_name}
                        onChange={(e) => setReminder(i, { template_name: e.target.value })}
                        maxLength={512}
                      />
                    </Field>
                    <Field
                      label="Template language"
                      hint="e.g. en or en_US."
                      error={at(`${path}.template.language`)}
                    >
                      <Input
                        value={r.template_language}
                        onChange={(e) => setReminder(i, { template_language: e.target.value })}
                        maxLength={6}
                        className="max-w-32"
                      />
                    </Field>
                  </div>
                  <div>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => set({ reminders: d.reminders.filter((_, k) => k !== i) })}
                    >
                      Remove reminder {i + 1}
                    </Button>
                  </div>
                </fieldset>
              );
            })}
            {d.reminders.length < MAX_REMINDERS && (
              <div>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() =>
                    set({
                      reminders: [
                        ...d.reminders,
                        {
                          key: draftKey(),
                          amount: '1',
                          unit: 1440,
                          channel_id: whatsapp[0]?.id ?? '',
                          template_name: '',
                          template_language: 'en',
                        },
                      ],
                    })
                  }
                >
                  Add reminder
                </Button>
                {can('channels.read') && channels.isSuccess && whatsapp.length === 0 && (
                  <p className="mt-1 text-xs text-muted">No WhatsApp channel yet: reminders need one.</p>
                )}
              </div>
            )}
          </Group>

          <Group title="Booking page">
            <Checkbox
              label="Public: customers can book it on its own page, without signing in"
              checked={d.public}
              onChange={(e) => set({ public: e.target.checked })}
            />
            <Checkbox
              label="Requires confirmation: a free booking waits until you confirm it"
              checked={d.requires_confirmation}
              onChange={(e) => set({ requires_confirmation: e.target.checked })}
            />
            <DurationField
              label="Cancel and reschedule notice"
              unitId="cancel-notice-unit"
              error={at('cancel_notice_minutes')}
              hint="Customers can cancel or move a booking through its link until this long before it starts."
              className="max-w-md"
              amount={d.cancel_amount}
              unit={d.cancel_unit}
              onChange={(amount, unit) => set({ cancel_amount: amount, cancel_unit: unit })}
            />
            {initial?.public && <BookingPageLink serviceId={initial.id} />}
          </Group>

          <Checkbox
            label="Active: offered for booking"
            checked={d.is_active}
            onChange={(e) => set({ is_active: e.target.checked })}
          />
          {problem && (
            <Notice tone="error" role="alert">
              {problem}
            </Notice>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={pending}>
              {mode === 'create' ? 'Create service' : 'Save changes'}
            </Button>
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

/** The page's address and a snippet that frames it on the business's own site. */
function BookingPageLink({ serviceId }: { serviceId: string }) {
  const url = `${typeof window === 'undefined' ? '' : window.location.origin}/book/${serviceId}`;
  const embed = `<iframe src="${url}" title="Book online" style="width:100%;min-height:720px;border:0" loading="lazy"></iframe>`;
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <Field label="Page link" hint="Put it in your bio, your site or a message.">
        <div className="flex gap-2">
          <Input readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton value={url} label="Copy link" />
        </div>
      </Field>
      <Field
        label="Embed on your site"
        hint="A site can frame it only when its origin is in your frame origins (PATCH /tenant, booking_page.frame_origins)."
      >
        <div className="flex gap-2">
          <Input readOnly value={embed} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton value={embed} label="Copy embed code" />
        </div>
      </Field>
    </div>
  );
}

/** A length of time as an amount and a unit (minutes, hours, days), as the API's minutes. */
function DurationField(props: {
  label: string;
  unitId: string;
  error?: string;
  hint: string;
  className?: string;
  amount: string;
  unit: number;
  onChange: (amount: string, unit: number) => void;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint} className={props.className}>
      <div className="flex gap-2">
        <Input
          type="number"
          min={0}
          inputMode="numeric"
          value={props.amount}
          onChange={(e) => props.onChange(e.target.value, props.unit)}
          className="max-w-24"
        />
        <Select
          id={props.unitId}
          aria-label={`${props.label} unit`}
          value={props.unit}
          onChange={(e) => props.onChange(props.amount, Number(e.target.value))}
          inline
        >
          {UNITS.map((u) => (
            <option key={u.value} value={u.value}>
              {u.label}
            </option>
          ))}
        </Select>
      </div>
    </Field>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex min-w-0 flex-col gap-4 border-t border-border pt-4 first:border-t-0 first:pt-0">
      <h3 className="font-semibold">{title}</h3>
      {children}
    </section>
  );
}

function NumberField({
  label,
  unit,
  hint,
  value,
  error,
  placeholder,
  onChange,
}: {
  label: string;
  unit: string;
  hint?: string;
  value: string;
  error?: string;
  placeholder?: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={`${label} (${unit})`} hint={hint} error={error}>
      <Input
        type="number"
        min={0}
        inputMode="numeric"
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        className="max-w-36"
      />
    </Field>
  );
}
