import { describe, expect, it } from 'vitest';
import { formatMoney as format } from '@/app/_components/money';

/** Intl separates with no-break spaces; compare with plain ones. */
const formatMoney = (...args: Parameters<typeof format>) => format(...args).replace(/[\u00a0\u202f]/g, ' ');

describe('formatMoney', () => {
  it('divides minor units by the currency’s own digits', () => {
    expect(formatMoney(4500, 'EUR', 'en-US')).toBe('€45.00');
    expect(formatMoney(4599, 'USD', 'en-US')).toBe('$45.99');
    expect(formatMoney(4500, 'JPY', 'en-US')).toBe('¥4,500');
    expect(formatMoney(4500, 'KWD', 'en-US')).toBe('KWD 4.500');
    expect(formatMoney(123456, 'EUR', 'de-DE')).toBe('1.234,56 €');
  });

  it('shows an unknown currency as raw minor units instead of failing', () => {
    expect(formatMoney(10, 'XYZW')).toBe('10 XYZW (minor units)');
  });
});
