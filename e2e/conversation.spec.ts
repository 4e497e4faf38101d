// The agent's screen (docs/decisions.md "Conversations and WhatsApp"): a customer's photo arrives over WhatsApp, the agent opens the
// conversation, sees the photo, replies with text; once the 24-hour window is closed the reply box
// becomes the template form and a template goes out.
import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { ensureEmbeddedDatabase } from '@/server/db/embedded';
import { api, E2E_MEDIA, expectNoSidewaysScroll, signInToDashboard } from './fixtures';

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
  await inboundWebhook({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'waba',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550100', phone_number_id: phoneNumberId },
              contacts: [{ wa_id: customer, profile: { name: 'Marta Ruiz' } }],
              messages: [
                {
                  from: customer,
                  id: `wamid.E2E${Date.now()}`,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: 'image',
                  image: { id: E2E_MEDIA.id, mime_type: 'image/png', caption: 'Is this swelling normal?' },
                },
              ],
            },
          },
        ],
      },
    ],
  });
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
