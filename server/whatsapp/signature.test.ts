import { describe, expect, it } from 'vitest';
import { hubSignature, isValidHubSignature } from './signature';

const secret = 'app-secret';
const body = '{"object":"whatsapp_business_account","entry":[]}';

describe('X-Hub-Signature-256', () => {
  it('accepts the HMAC of the exact body', () => {
    expect(isValidHubSignature(body, hubSignature(body, secret), secret)).toBe(true);
    expect(
      isValidHubSignature(body, hubSignature(body, secret).toUpperCase().replace('SHA256', 'sha256'), secret),
    ).toBe(true);
  });
  it.each([
    ['missing', null],
    ['empty', ''],
    ['without the prefix', hubSignature(body, secret).slice(7)],
    ['sha1', `sha1=${'a'.repeat(40)}`],
    ['truncated', hubSignature(body, secret).slice(0, -2)],
    ['of another secret', hubSignature(body, 'other')],
    ['of an altered body', hubSignature(`${body} `, secret)],
  ])('refuses a signature %s', (_, header) => {
    expect(isValidHubSignature(body, header, secret)).toBe(false);
  });
});
