import { describe, expect, it } from 'vitest';
import { formatMoney as format, fromMinorUnits, toMinorUnits } from '@/app/_components/money';

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

describe('toMinorUnits and fromMinorUnits: what the service form types and shows', () => {
  it('reads major units with the currency’s own digits, either decimal mark', () => {
    expect(toMinorUnits('45', 'EUR')).toBe(4500);
    expect(toMinorUnits('45.5', 'EUR')).toBe(4550);
    expect(toMinorUnits(' 45,05 ', 'EUR')).toBe(4505);
    expect(toMinorUnits('4500', 'JPY')).toBe(4500);
    expect(toMinorUnits('4.5', 'KWD')).toBe(4500);
  });

  it('refuses what is not an amount of that currency', () => {
    for (const [text, currency] of [
      ['45.001', 'EUR'],
      ['45.5', 'JPY'],
      ['-1', 'EUR'],
      ['', 'EUR'],
      ['4 5', 'EUR'],
      ['1e3', 'EUR'],
    ])
      expect(toMinorUnits(text, currency), `${text} ${currency}`).toBeNull();
  });

  it('shows minor units as the major-unit text an input holds, and back', () => {
    expect(fromMinorUnits(4500, 'EUR')).toBe('45.00');
    expect(fromMinorUnits(5, 'EUR')).toBe('0.05');
    expect(fromMinorUnits(4500, 'JPY')).toBe('4500');
    expect(fromMinorUnits(4500, 'KWD')).toBe('4.500');
    for (const amount of [1, 99, 100, 123456])
      expect(toMinorUnits(fromMinorUnits(amount, 'EUR'), 'EUR')).toBe(amount);
  });
});
