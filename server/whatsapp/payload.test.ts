import { describe, expect, it } from 'vitest';
import { messageChanges, messageText, WebhookPayload } from './payload';

describe('messageChanges', () => {
  it('keeps messages changes of the expected shape and counts the others', () => {
    const payload = WebhookPayload.parse({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '1',
          changes: [
            { field: 'messages', value: { metadata: { phone_number_id: '123' }, messages: [] } },
            { field: 'messages', value: { metadata: {} } },
            { field: 'account_update', value: {} },
          ],
        },
      ],
    });
    const { values, skipped } = messageChanges(payload);
    expect(values.map((v) => v.metadata.phone_number_id)).toEqual(['123']);
    expect(skipped).toBe(1);
  });
});

describe('messageText', () => {
  const base = { id: 'wamid.1', from: '1' };
  it.each([
    [{ type: 'text', text: { body: 'hello' } }, 'hello'],
    [{ type: 'image', image: { caption: 'look' } }, 'look'],
    [{ type: 'image', image: {} }, '[image]'],
    [{ type: 'document', document: { filename: 'x.pdf' } }, '[document: x.pdf]'],
    [{ type: 'interactive', interactive: { button_reply: { title: 'Yes' } } }, 'Yes'],
    [{ type: 'button', button: { text: 'Confirm' } }, 'Confirm'],
    [{ type: 'location' }, '[location]'],
  ])('%j → %s', (message, text) => {
    expect(messageText({ ...base, ...message })).toBe(text);
  });
});
