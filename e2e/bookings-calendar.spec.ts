// The bookings calendar and its settings: an admin sets up a resource (weekly
// hours, time off, calendar feed) and a service in Settings, books from the calendar by clicking a free
// slot (a time taken meanwhile is refused plainly), reschedules by choosing a new slot, watches a hold
// expire, cancels one booking and marks another a no-show with confirmation; a phone shows one day.
// Every screen is shot at 1280 and 375 px (test-results/screens/calendar-*.png).
import { expect, type Page, test } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { api, E2E_MEDIA, expectNoSidewaysScroll, fixtures, signInToDashboard } from './fixtures';

const ZONE = 'Europe/Madrid';
const today = () => Temporal.Now.plainDateISO(ZONE);
const tomorrow = () => today().add({ days: 1 }).toString();
/** The UTC instant of a Madrid wall time. */
const madrid = (date: string, hhmm: string) =>
  Temporal.PlainDateTime.from(`${date}T${hhmm}`).toZonedDateTime(ZONE).toInstant().toString();

/** Screenshots at 1280 and 375 px (a dialog as the viewport shows it, a page whole). */
async function shoot(page: Page, name: string, { dialog = false } = {}) {
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.screenshot({ path: `test-results/screens/calendar-${name}.png`, fullPage: !dialog });
  await page.setViewportSize({ width: 375, height: 812 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `test-results/screens/calendar-${name}-375.png`, fullPage: !dialog });
  await page.setViewportSize({ width: 1280, height: 860 });
}

/** A resource and a service made through the API, working every day all day in Madrid. */
async function givenBookable(name: string, duration = 30) {
  const hours = Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
  );
  const resource = await api('POST', '/resources', { name, time_zone: ZONE, weekly_hours: hours });
  expect(resource.status).toBe(201);
  const service = await api('POST', '/services', {
    name: `${name} visit`,
    duration_minutes: duration,
    resource_ids: [resource.body.id],
  });
  expect(service.status).toBe(201);
  return { resourceId: resource.body.id as string, serviceId: service.body.id as string };
}

async function book(
  serviceId: string,
  resourceId: string,
  startAt: string,
  extra: Record<string, unknown> = {},
) {
  const created = await api('POST', '/bookings', {
    service_id: serviceId,
    resource_id: resourceId,
    start_at: startAt,
    customer: { name: (extra.name as string) ?? 'Grace Hopper', phone: '+34600111222' },
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'name')),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: string };
}

test('an admin sets up a resource and a service, books a free slot, loses a race for one, and reschedules', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const name = 'Dr. Calendar';
  await signInToDashboard(page, fixtures().admin);

  // Settings › Resources: a resource in Madrid with weekly hours; an overlap is refused at its interval.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Resources' }).click();
  await expect(page.getByRole('heading', { name: 'Resources', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add resource' }).click();
  const form = page.getByRole('form', { name: 'New resource' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Kind').selectOption('staff');
  await form.getByLabel('Time zone').selectOption(ZONE);
  await form.getByRole('button', { name: 'Add interval on Monday' }).click();
  await form.getByLabel('Monday interval 2 start').fill('16:00');
  await form.getByLabel('Monday interval 2 end').fill('24:00');
  await form.getByRole('button', { name: 'Create resource' }).click();
  const monday = form.getByTestId('hours-mon');
  await expect(monday.getByRole('alert')).toContainText('Overlaps 09:00–17:00 of the same day');
  await expect(form.getByLabel('Monday interval 2 start')).toHaveAttribute('aria-invalid', 'true');
  await shoot(page, 'resource-form');
  await form.getByLabel('Monday interval 2 start').fill('17:00');
  await form.getByRole('button', { name: 'Copy to Tuesday–Friday' }).click();
  await form.getByRole('button', { name: 'Add interval on Saturday' }).click();
  await form.getByRole('button', { name: 'Add interval on Sunday' }).click();
  await form.getByRole('button', { name: 'Add interval on Sunday' }).click();
  await form.getByRole('button', { name: 'Remove Sunday interval 2' }).click();
  await form.getByRole('button', { name: 'Create resource' }).click();

  // Its own page: time off in Madrid time, and the calendar feed URL (copy, rotate with confirmation).
  await expect(page.getByText(`${name} was created`)).toBeVisible();
  const resourceId = new URL(page.url()).pathname.split('/').pop() as string;
  const saved = (await api('GET', `/resources/${resourceId}`)).body;
  expect(saved).toMatchObject({ time_zone: ZONE, kind: 'staff' });
  expect(saved.weekly_hours.mon).toEqual([
    { start: '09:00', end: '17:00' },
    { start: '17:00', end: '24:00' },
  ]);
  expect(saved.weekly_hours.fri).toEqual(saved.weekly_hours.mon);
  expect(saved.weekly_hours.sun).toEqual([{ start: '09:00', end: '17:00' }]);
  const day = tomorrow();
  const timeOff = page.getByRole('form', { name: 'Add time off' });
  await timeOff.getByLabel(`From (${ZONE})`).fill(`${day}T12:00`);
  await timeOff.getByLabel(`Until (${ZONE})`).fill(`${day}T13:00`);
  await timeOff.getByLabel('Reason').fill('Team lunch');
  await timeOff.getByRole('button', { name: 'Add time off' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Team lunch' })).toBeVisible();
  const offs = (await api('GET', `/resources/${resourceId}/time-off`)).body.data;
  expect(offs).toMatchObject([
    { start_at: new Date(madrid(day, '12:00')).toISOString(), reason: 'Team lunch' },
  ]);
  const feedUrl = page.getByTestId('calendar-url');
  await expect(feedUrl).toContainText(`/resources/${resourceId}/calendar.ics?token=`);
  const firstUrl = await feedUrl.textContent();
  await page.getByRole('button', { name: 'Copy URL' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  await page.getByRole('button', { name: 'Rotate URL' }).click();
  await page
    .getByRole('alertdialog', { name: 'Rotate the calendar URL?' })
    .getByRole('button', { name: 'Rotate URL' })
    .click();
  await expect(feedUrl).not.toHaveText(firstUrl ?? '');
  expect((await fetch(firstUrl ?? '')).status).toBe(404);
  await shoot(page, 'resource-detail');

  // Settings › Services: a 60-minute service every 30 minutes; a field error shows at its field.
  await nav.getByRole('link', { name: 'Services' }).click();
  await page.getByRole('button', { name: 'Add service' }).click();
  const service = page.getByRole('form', { name: 'New service' });
  await service.getByLabel('Name').fill('Consultation');
  await service.getByLabel('Duration (minutes)').fill('3');
  await service.getByLabel(name).check();
  await service.getByLabel('Slot grid (minutes)').fill('30');
  await service.getByLabel('Price (EUR)').fill('45');
  await service.getByRole('button', { name: 'Create service' }).click();
  await expect(service.getByText('Too small: expected number to be >=5')).toBeVisible();
  await expect(service.getByLabel('Duration (minutes)')).toHaveAttribute('aria-invalid', 'true');
  await shoot(page, 'service-form');
  await service.getByLabel('Duration (minutes)').fill('60');
  await service.getByRole('button', { name: 'Create service' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Service Consultation created' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'Consultation' });
  await expect(row).toContainText('€45.00');
  await expect(row).toContainText(name);
  const serviceId = (await api('GET', '/services')).body.data.find(
    (s: { name: string }) => s.name === 'Consultation',
  ).id as string;
  await shoot(page, 'services');

  // The calendar, in the resource's zone: working hours, time off, and the service's free slots.
  await page.goto(`/bookings?r=${resourceId}&date=${day}`);
  await expect(page.getByTestId('calendar-zone')).toContainText(ZONE);
  await expect(page.getByLabel('Free times for')).toHaveValue(serviceId);
  const column = page.getByTestId(`column-${resourceId}`);
  await expect(column.getByTestId(`time-off-${offs[0].id}`)).toContainText('Team lunch');
  await expect(column.getByTestId('working-hours').first()).toBeVisible();
  const slot = (hhmm: string) =>
    column.getByRole('button', { name: new RegExp(`^${hhmm} free: book .* on ${name}$`) });
  await expect(slot('12:00')).toHaveCount(0); // time off
  await expect(slot('11:30')).toHaveCount(0); // would run into the time off
  await shoot(page, 'day');

  // Book 10:00 from its free slot; a phone number that is not one is refused at its field.
  await slot('10:00').click();
  const dialog = page.getByRole('dialog', { name: 'New booking' });
  await expect(dialog.getByLabel('Time', { exact: true })).toHaveValue(
    new Date(madrid(day, '10:00')).toISOString(),
  );
  await dialog.getByLabel('Customer name').fill('Ada Calendar');
  await dialog.getByLabel('Phone').fill('12');
  await dialog.getByRole('button', { name: 'Book' }).click();
  await expect(dialog.getByText('An international number (E.164)')).toBeVisible();
  await shoot(page, 'book-form', { dialog: true });
  await dialog.getByLabel('Phone').fill('+34600111222');
  await dialog.getByLabel('Email').fill('ada@example.test');
  await dialog.getByRole('button', { name: 'Book' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Booked Ada Calendar' })).toContainText(
    'confirmed',
  );
  const ada = (await api('GET', `/bookings?resource_id=${resourceId}`)).body.data[0];
  expect(ada).toMatchObject({
    status: 'confirmed',
    start_at: new Date(madrid(day, '10:00')).toISOString(),
    service_id: serviceId,
    customer: { name: 'Ada Calendar', phone: '+34600111222', email: 'ada@example.test' },
  });
  await expect(column.getByTestId(`booking-block-${ada.id}`)).toHaveAttribute('data-status', 'confirmed');
  await expect(slot('10:30')).toHaveCount(0);

  // Someone else takes 15:00 while the form is open: 409 slot_unavailable, said plainly, times re-read.
  await slot('15:00').click();
  await dialog.getByLabel('Customer name').fill('Linus Late');
  await dialog.getByLabel('Confirm it now (otherwise it stays pending)').uncheck();
  await book(serviceId, resourceId, madrid(day, '15:00'), { name: 'Quick Caller' });
  await dialog.getByRole('button', { name: 'Book' }).click();
  await expect(dialog.getByRole('alert')).toContainText('That time was just taken by another booking');
  await expect(dialog.getByLabel('Time', { exact: true })).toHaveValue('');
  await expect(dialog.getByRole('option', { name: /^15:00/ })).toHaveCount(0);
  await shoot(page, 'book-taken', { dialog: true });
  await dialog.getByLabel('Time', { exact: true }).selectOption({ label: '16:00–17:00' });
  await dialog.getByRole('button', { name: 'Book' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Booked Linus Late' })).toContainText('pending');

  // Reschedule Ada by choosing a new slot: 10:30 overlaps her own 10:00–11:00, and is offered.
  await column.getByTestId(`booking-block-${ada.id}`).click();
  const details = page.getByRole('dialog', { name: /Ada Calendar/ });
  await expect(details).toContainText(ZONE);
  await details.getByRole('button', { name: 'Reschedule' }).click();
  const picker = details.getByRole('region', { name: 'Reschedule' });
  await picker.getByRole('button', { name: '10:30', exact: true }).click();
  await shoot(page, 'reschedule', { dialog: true });
  await picker.getByRole('button', { name: 'Move booking to 10:30' }).click();
  await expect(details).toHaveCount(0);
  await expect(
    page.getByRole('status').filter({ hasText: 'Booking for Ada Calendar moved to' }),
  ).toBeVisible();
  expect((await api('GET', `/bookings/${ada.id}`)).body.start_at).toBe(
    new Date(madrid(day, '10:30')).toISOString(),
  );
  await expect(column.getByTestId(`booking-block-${ada.id}`)).toContainText('10:30–11:30');

  // The week view of the same resource.
  await page.getByRole('button', { name: 'Week' }).click();
  await expect(page).toHaveURL(/mode=week/);
  await expect(page.locator('[data-testid^="column-"]')).toHaveCount(7);
  await expect(page.getByTestId(`column-${day}`).getByTestId(`booking-block-${ada.id}`)).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.screenshot({ path: 'test-results/screens/calendar-week.png', fullPage: true });
  // The list is the second view, in the URL too.
  await page.getByRole('tab', { name: 'List' }).click();
  await expect(page).toHaveURL(/view=list/);
  await expect(page.getByTestId(`booking-${ada.id}`)).toContainText('Ada Calendar');
});

test('a hold is seen to expire; a booking is cancelled and another marked a no-show, each confirmed first', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { resourceId, serviceId } = await givenBookable('Room Hold');
  const day = tomorrow();
  await signInToDashboard(page, fixtures().agent);
  await page.goto(`/bookings?r=${resourceId}&date=${day}`);
  const column = page.getByTestId(`column-${resourceId}`);
  await expect(column.getByTestId('free-slot').first()).toBeVisible();

  // A hold a few seconds long: drawn as a hold with its end, then expired without a reload.
  const hold = await book(serviceId, resourceId, madrid(day, '10:00'), {
    name: 'Hannah Hold',
    hold_expires_at: new Date(Date.now() + 10_000).toISOString(),
  });
  await page.reload();
  const held = column.getByTestId(`booking-block-${hold.id}`);
  await expect(held).toHaveAttribute('data-kind', 'hold');
  await expect(held).toContainText('Hold until');
  await shoot(page, 'hold');
  await expect(held).toHaveAttribute('data-status', 'expired', { timeout: 25_000 });
  await expect(held).toContainText('expired');

  // Several resources side by side in the day view (a phone scrolls them inside the grid's box).
  await page.getByRole('button', { name: 'Dr. Calendar' }).click();
  await expect(page).toHaveURL(/r=res_\w+%2Cres_\w+|r=res_\w+,res_\w+/);
  await expect(page.locator('[data-testid^="column-"]')).toHaveCount(2);
  await shoot(page, 'day-two-resources');
  await page.goto(`/bookings?r=${resourceId}&date=${day}`);

  // Cancel with a reason, after confirming in the dialog.
  const cancelled = await book(serviceId, resourceId, madrid(day, '12:00'), { name: 'Carl Cancel' });
  await page.reload();
  await column.getByTestId(`booking-block-${cancelled.id}`).click();
  const details = page.getByRole('dialog', { name: /Carl Cancel/ });
  await details.getByRole('button', { name: 'Cancel booking' }).click();
  const prompt = page.getByRole('dialog', { name: 'Cancel the booking for Carl Cancel?' });
  await prompt.getByLabel('Reason').fill('Customer called');
  await shoot(page, 'cancel', { dialog: true });
  await prompt.getByRole('button', { name: 'Cancel booking' }).click();
  await expect(details.getByRole('status')).toContainText('Booking for Carl Cancel cancelled');
  await expect(details).toContainText('Customer called');
  await page.keyboard.press('Escape');
  await expect(column.getByTestId(`booking-block-${cancelled.id}`)).toHaveAttribute(
    'data-status',
    'cancelled',
  );
  expect((await api('GET', `/bookings/${cancelled.id}`)).body.cancellation_reason).toBe('Customer called');
  // Faded bookings can be hidden.
  await page.getByLabel('Show cancelled, expired and no-shows').click();
  await expect(page).toHaveURL(/faded=hide/);
  await expect(column.getByTestId(`booking-block-${cancelled.id}`)).toHaveCount(0);
  await page.getByLabel('Show cancelled, expired and no-shows').click();
  await expect(page).not.toHaveURL(/faded=hide/);

  // No-show: a confirmed booking that has started, after confirming in the dialog.
  const start = Date.now() + 4_000;
  const late = await book(serviceId, resourceId, new Date(start).toISOString(), { name: 'Nora Noshow' });
  expect((await api('POST', `/bookings/${late.id}/confirm`)).status).toBe(200);
  const lateDay = Temporal.Instant.fromEpochMilliseconds(start)
    .toZonedDateTimeISO(ZONE)
    .toPlainDate()
    .toString();
  await page.waitForTimeout(Math.max(0, start - Date.now() + 500));
  await page.goto(`/bookings?r=${resourceId}&date=${lateDay}`);
  await page.getByTestId(`booking-block-${late.id}`).click();
  const lateDetails = page.getByRole('dialog', { name: /Nora Noshow/ });
  await lateDetails.getByRole('button', { name: 'No-show' }).click();
  const sure = page.getByRole('alertdialog', { name: 'Mark Nora Noshow as a no-show?' });
  await expect(sure).toBeVisible();
  await sure.getByRole('button', { name: 'Mark no-show' }).click();
  await expect(lateDetails.getByRole('status')).toContainText('Booking for Nora Noshow marked as a no-show');
  expect((await api('GET', `/bookings/${late.id}`)).body.status).toBe('no_show');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId(`booking-block-${late.id}`)).toHaveAttribute('data-status', 'no_show');
});

test('on a phone the calendar shows one day, with thumb-sized free times, and nothing widens the page', async ({
  page,
}) => {
  const { resourceId } = await givenBookable('Phone Room', 45);
  await signInToDashboard(page, fixtures().agent);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/bookings?r=${resourceId}&mode=week&date=${tomorrow()}`);
  await expect(page.getByTestId(`column-${resourceId}`)).toBeVisible();
  await expect(page.locator('[data-testid^="column-"]')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Week' })).toHaveCount(0);
  const times = page.getByRole('region', { name: 'Free times' });
  const first = times.getByRole('button').first();
  await expect(first).toBeVisible();
  const box = await first.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(40);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/screens/calendar-phone-day.png', fullPage: true });
  await first.click();
  const dialog = page.getByRole('dialog', { name: 'New booking' });
  await expect(dialog.getByRole('button', { name: 'Book' })).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/screens/calendar-phone-book.png' });
});

test('agents see resources and services but cannot change them', async ({ page }) => {
  await signInToDashboard(page, fixtures().agent);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Resources' }).click();
  await expect(page.getByRole('heading', { name: 'Resources', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add resource' })).toHaveCount(0);
  await page.getByRole('row').nth(1).getByRole('link').click();
  await expect(page.getByLabel('Name')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await expect(page.getByTestId('calendar-url')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete resource' })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Services' }).click();
  await expect(page.getByRole('heading', { name: 'Services', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add service' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
});

test('an admin edits a service (deposit, a WhatsApp reminder) and deletes it; a resource with bookings is not deleted', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { resourceId, serviceId } = await givenBookable('Chair Two', 45);
  // Booked while the service is free (a paid one would need a payment provider).
  const booked = await book(serviceId, resourceId, madrid(today().add({ days: 3 }).toString(), '10:00'));
  const channel = await api('POST', '/channels', {
    type: 'whatsapp',
    phone_number_id: String(600_000_000 + Math.floor(Math.random() * 1e8)),
    access_token: E2E_MEDIA.token,
    display_name: 'Reminders line',
  });
  expect(channel.status).toBe(201);
  await signInToDashboard(page, fixtures().admin);

  // Edit: a deposit larger than the price and a template name Meta would refuse, each shown at its field.
  await page.goto('/settings/services');
  await page.getByTestId(`service-${serviceId}`).getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Edit service' });
  await form.getByLabel('Price (EUR)').fill('30');
  await form.getByLabel('A deposit').check();
  await form.getByLabel('Deposit (EUR)').fill('40');
  await form.getByLabel('Buffer after (minutes)').fill('15');
  await form.getByLabel('Minimum notice', { exact: true }).fill('2');
  await form.getByLabel('Minimum notice unit').selectOption({ label: 'hours' });
  await form.getByRole('button', { name: 'Add reminder' }).click();
  const reminder = form.getByRole('group', { name: 'Reminder 1' });
  await reminder.getByLabel('Send before the start').fill('2');
  await reminder.getByLabel('Reminder 1 unit').selectOption({ label: 'hours' });
  await reminder.getByLabel('WhatsApp channel').selectOption({ label: 'Reminders line' });
  await reminder.getByLabel('Template name').fill('Appointment Reminder');
  await reminder.getByLabel('Template language').fill('en');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByText('At most the price')).toBeVisible();
  await expect(reminder.getByText('Lower-case letters, digits and underscores')).toBeVisible();
  await expect(reminder.getByLabel('Template name')).toHaveAttribute('aria-invalid', 'true');
  await shoot(page, 'service-edit-errors');
  await form.getByLabel('Deposit (EUR)').fill('10.50');
  await reminder.getByLabel('Template name').fill('appointment_reminder');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Service Chair Two visit saved' })).toBeVisible();
  const saved = (await api('GET', `/services/${serviceId}`)).body;
  expect(saved).toMatchObject({
    price: { amount: 3000, currency: 'EUR' },
    payment: 'deposit',
    deposit_amount: 1050,
    buffer_after_minutes: 15,
    min_notice_minutes: 120,
    reminders: [
      {
        before_minutes: 120,
        channel_id: channel.body.id,
        template: { name: 'appointment_reminder', language: 'en' },
      },
    ],
  });
  const row = page.getByTestId(`service-${serviceId}`);
  await expect(row).toContainText('deposit €10.50');
  await shoot(page, 'services-edited');

  // A resource with a future booking is not deleted: the refusal says why and what to do.
  await page.goto(`/settings/resources/${resourceId}`);
  await page.getByRole('button', { name: 'Delete resource' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete Chair Two?' })
    .getByRole('button', { name: 'Delete resource' })
    .click();
  const refusal = page
    .getByRole('alert')
    .filter({ hasText: 'still has future pending or confirmed bookings' });
  await expect(refusal).toBeVisible();
  await expect(refusal.getByRole('link', { name: 'its calendar' })).toHaveAttribute(
    'href',
    `/bookings?r=${resourceId}`,
  );
  expect((await api('GET', `/resources/${resourceId}`)).status).toBe(200);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.screenshot({ path: 'test-results/screens/calendar-resource-in-use.png', fullPage: true });

  // The service is deleted after confirmation; its booking stays.
  await page.goto('/settings/services');
  await page.getByTestId(`service-${serviceId}`).getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete Chair Two visit?' })
    .getByRole('button', { name: 'Delete service' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Service deleted' })).toBeVisible();
  await expect(page.getByTestId(`service-${serviceId}`)).toHaveCount(0);
  expect((await api('GET', `/services/${serviceId}`)).status).toBe(404);
  expect((await api('GET', `/bookings/${booked.id}`)).body.status).toBe('pending');
});
