import { describe, expect, it } from 'vitest';
import { formatMoney as format, minorToDecimal, parseMoney } from '@/app/_components/money';

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

describe('parseMoney and minorToDecimal (the refund form)', () => {
  it('reads a typed amount in the currency’s major unit as integer minor units', () => {
    expect(parseMoney('12.5', 'EUR')).toEqual({ ok: true, amount: 1250 });
    expect(parseMoney('12,50', 'EUR')).toEqual({ ok: true, amount: 1250 });
    expect(parseMoney(' 1 200.00 ', 'EUR')).toEqual({ ok: true, amount: 120000 });
    expect(parseMoney('0.01', 'USD')).toEqual({ ok: true, amount: 1 });
    expect(parseMoney('4500', 'JPY')).toEqual({ ok: true, amount: 4500 });
    expect(parseMoney('4.125', 'KWD')).toEqual({ ok: true, amount: 4125 });
  });

  it('refuses more decimals than the currency has, zero, negatives and words', () => {
    for (const [text, currency] of [
      ['12.505', 'EUR'],
      ['45.5', 'JPY'],
      ['0', 'EUR'],
      ['0.00', 'EUR'],
      ['-5', 'EUR'],
      ['ten', 'EUR'],
      ['', 'EUR'],
      ['1e3', 'EUR'],
    ]) {
      expect(parseMoney(text, currency).ok, `${text} ${currency}`).toBe(false);
    }
  });

  it('writes minor units back as the decimal a person types', () => {
    expect(minorToDecimal(4500, 'EUR')).toBe('45.00');
    expect(minorToDecimal(4500, 'JPY')).toBe('4500');
    expect(minorToDecimal(4125, 'KWD')).toBe('4.125');
    for (const [amount, currency] of [
      [1, 'EUR'],
      [99_999, 'USD'],
      [7, 'KWD'],
      [123, 'JPY'],
    ] as const) {
      expect(parseMoney(minorToDecimal(amount, currency), currency)).toEqual({ ok: true, amount });
    }
  });
});
