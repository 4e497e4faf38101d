// The agent's screen (docs/decisions.md "Conversations and WhatsApp"): a customer's photo arrives over WhatsApp, the agent opens the
// conversation, sees the photo, replies with text; once the 24-hour window is closed the reply box
// becomes the template form and a template goes out.
import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { ensureEmbeddedDatabase } from '@/server/db/embedded';
import { whatsappPayload } from '@/test/support/fake-graph';
import { expectAccessible } from './axe';
import { api, E2E_MEDIA, expectNoSidewaysScroll, signInToDashboard } from './fixtures';

/** Meta's webhook around `messages` from `customer` (named `name`) to `phoneNumberId`. */
const fromCustomer = (phoneNumberId: string, customer: string, name: string, messages: object[]) =>
  whatsappPayload(phoneNumberId, { contacts: [{ wa_id: customer, profile: { name } }], messages });

async function inboundWebhook(payload: object) {
  const body = JSON.stringify(payload);
  const signature = createHmac('sha256', process.env.E2E_WHATSAPP_SECRET ?? '')
    .update(body)
    .digest('hex');
  const response = await fetch(`http://localhost:${process.env.E2E_PORT}/api/v1/channels/whatsapp/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': `sha256=${signature}` },
    body,
  });
  expect(response.status).toBe(200);
}

/** The one thing no API does: let time pass. The window's end is moved into the past directly. */
async function closeWindow(conversationId: string) {
  const { url } = await ensureEmbeddedDatabase(process.env.E2E_DATA_DIR as string);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `update conversations set window_expires_at = now() - interval '1 second' where id = $1`,
    [conversationId],
  );
  await client.end();
}

test('an agent sees a customer photo, replies, and sends a template once the window is closed', async ({
  page,
}) => {
  const phoneNumberId = String(500_000_000 + Math.floor(Math.random() * 1e8));
  const channel = await api('POST', '/channels', {
    type: 'whatsapp',
    phone_number_id: phoneNumberId,
    access_token: E2E_MEDIA.token,
    display_name: 'Front desk',
  });
  expect(channel.status).toBe(201);
  const customer = `3461${Math.floor(Math.random() * 1e7)}`;
  await inboundWebhook(
    fromCustomer(phoneNumberId, customer, 'Marta Ruiz', [
      {
        from: customer,
        id: `wamid.E2E${Date.now()}`,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: 'image',
        image: { id: E2E_MEDIA.id, mime_type: 'image/png', caption: 'Is this swelling normal?' },
      },
    ]),
  );
  const list = await api('GET', '/conversations?limit=100');
  const conversation = list.body.data.find(
    (c: { contact: { phone: string } }) => c.contact.phone === customer,
  );
  expect(conversation.window_expires_at).not.toBeNull();

  await signInToDashboard(page, { email: 'agent@e2e.test', password: 'e2e password 1234' });
  await page.goto('/conversations');
  await page.getByRole('link', { name: 'Marta Ruiz' }).first().click();
  await expect(page.getByRole('heading', { name: 'Marta Ruiz' })).toBeVisible();
  const photo = page.getByRole('img', { name: 'Is this swelling normal?' });
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await expect(page.getByText(/WhatsApp window: 2[34] h/)).toBeVisible();

  const reply = page.getByLabel('Reply', { exact: true });
  await expect(reply).toBeFocused();
  await reply.fill('It looks normal, but come in on Tuesday at 10:00 so we can check.');
  await page.screenshot({ path: 'test-results/screens/conversation.png', fullPage: true });
  await reply.press('Control+Enter');
  const sent = page.getByRole('listitem').filter({ hasText: 'come in on Tuesday at 10:00' });
  await expect(sent.getByText('sent')).toBeVisible();
  await expect(reply).toHaveValue('');

  await closeWindow(conversation.id);
  await page.reload();
  await expect(page.getByText('WhatsApp only delivers an approved template')).toBeVisible();
  await expect(page.getByLabel('Reply', { exact: true })).toHaveCount(0);
  await page.getByLabel('Template name').fill('appointment_reminder');
  await page.getByLabel('Body parameters').fill('Tuesday 10:00');
  await page.getByRole('button', { name: 'Send template' }).click();
  const template = page.getByRole('listitem').filter({ hasText: 'Template appointment_reminder · en_US' });
  await expect(template.getByText('sent')).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/screens/conversation-phone.png', fullPage: true });

  const messages = await api('GET', `/conversations/${conversation.id}/messages`);
  expect(messages.body.data.map((m: { type: string; status: string }) => [m.type, m.status])).toEqual([
    ['template', 'sent'],
    ['text', 'sent'],
    ['image', 'received'],
  ]);
});

test('an agent offers times from the conversation screen; the customer’s tap holds one, shown in the thread and in bookings', async ({
  page,
}) => {
  const phoneNumberId = String(500_000_000 + Math.floor(Math.random() * 1e8));
  expect(
    (
      await api('POST', '/channels', {
        type: 'whatsapp',
        phone_number_id: phoneNumberId,
        access_token: E2E_MEDIA.token,
        display_name: 'Front desk',
      })
    ).status,
  ).toBe(201);
  const everyDay = Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '09:00', end: '17:00' }]]),
  );
  const resource = await api('POST', '/resources', {
    name: 'Dr. Offer Lin',
    kind: 'staff',
    time_zone: 'Europe/Madrid',
    weekly_hours: everyDay,
  });
  await api('POST', '/services', {
    name: 'Whitening',
    duration_minutes: 45,
    resource_ids: [resource.body.id],
  });
  const customer = `3462${Math.floor(Math.random() * 1e7)}`;
  const at = () => String(Math.floor(Date.now() / 1000));
  await inboundWebhook(
    fromCustomer(phoneNumberId, customer, 'Lucía Tap', [
      {
        from: customer,
        id: `wamid.E2EO${Date.now()}`,
        timestamp: at(),
        type: 'text',
        text: { body: 'Any time next week?' },
      },
    ]),
  );
  const list = await api('GET', '/conversations?limit=100');
  const conversation = list.body.data.find(
    (c: { contact: { phone: string } }) => c.contact.phone === customer,
  );

  await signInToDashboard(page, { email: 'agent@e2e.test', password: 'e2e password 1234' });
  await page.goto(`/conversations/${conversation.id}`);
  await page.getByRole('button', { name: 'Offer times' }).click();
  const dialog = page.getByRole('dialog', { name: 'Offer times on WhatsApp' });
  await dialog.getByLabel('Service').selectOption({ label: 'Whitening (45 min)' });
  const nextWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  await dialog.getByLabel('From').fill(nextWeek);
  await dialog.getByLabel('Days').selectOption('2');
  await expectAccessible(page, 'the Offer times dialog');
  await dialog.getByRole('button', { name: 'Send the list' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/Offered 10 times/)).toBeVisible();
  const offerBubble = page.getByRole('listitem').filter({ hasText: 'Pick a time for Whitening' });
  await expect(offerBubble.getByText('sent')).toBeVisible();
  await expect(offerBubble.getByRole('list')).toHaveCount(2); // one per day

  // The customer taps the second time of the list, as WhatsApp reports it.
  const messages = await api('GET', `/conversations/${conversation.id}/messages?limit=1`);
  const option = messages.body.data[0].interactive.sections[0].options[1];
  await inboundWebhook(
    fromCustomer(phoneNumberId, customer, 'Lucía Tap', [
      {
        from: customer,
        id: `wamid.E2ETAP${Date.now()}`,
        timestamp: at(),
        type: 'interactive',
        interactive: {
          type: 'list_reply',
          list_reply: { id: option.id, title: option.title, description: '' },
        },
      },
    ]),
  );
  await expect(page.getByText(`Tapped “${option.title}”`)).toBeVisible({ timeout: 15_000 });
  const tappedRow = offerBubble.getByRole('listitem').filter({ hasText: 'tapped' });
  await expect(tappedRow).toHaveCount(1);
  await expect(tappedRow).toContainText(option.title);
  const held = page.getByRole('listitem').filter({ hasText: 'It is held for you until' });
  await expect(held.getByRole('list', { name: 'Buttons' })).toContainText('Confirm');
  await expectAccessible(page, 'a conversation with an offer, a tap and its answer');
  await page.screenshot({ path: 'test-results/screens/conversation-offer.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/screens/conversation-offer-phone.png', fullPage: true });

  // The tap's booking, in the bookings list.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/bookings?view=list');
  const row = page.getByRole('row').filter({ hasText: 'Lucía Tap' });
  await expect(row).toContainText('Whitening');
  await expect(row).toContainText('pending');
});
