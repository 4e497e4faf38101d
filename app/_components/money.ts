/**
 * An amount in integer minor units shown in its currency, with that currency's own number of minor
 * digits (ISO 4217): 4500 EUR → €45.00, 4500 JPY → ¥4,500, 4500 KWD → KWD 4.500.
 */
export function formatMoney(amount: number, currency: string, locale?: string): string {
  try {
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** digits);
  } catch {
    // A code this runtime does not know (the API refuses them; older rows might hold one).
    return `${amount} ${currency} (minor units)`;
  }
}

/** How many minor digits a currency has (ISO 4217): EUR 2, JPY 0, KWD 3; 2 for a code this runtime does not know. */
export function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}

/** Minor units as a plain decimal a person types: 1250 EUR → "12.50", 4500 JPY → "4500". */
export function minorToDecimal(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  return digits === 0 ? String(amount) : (amount / 10 ** digits).toFixed(digits);
}

/**
 * A typed amount ("12.5", "12,50", "1 200.00") in the currency's major unit, as integer minor units; or
 * the reason it is not one (more decimals than the currency has, not a positive number).
 */
export function parseMoney(
  text: string,
  currency: string,
): { ok: true; amount: number } | { ok: false; message: string } {
  const digits = minorDigits(currency);
  const cleaned = text
    .trim()
    .replace(/[\s\u00a0]/g, '')
    .replace(',', '.');
  const pattern = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`);
  if (!pattern.test(cleaned)) {
    return {
      ok: false,
      message:
        digits === 0
          ? `A whole number: ${currency} has no minor units.`
          : `A number with at most ${digits} decimals, e.g. ${(12.5).toFixed(digits)}.`,
    };
  }
  const [whole, fraction = ''] = cleaned.split('.');
  const amount = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  if (!Number.isSafeInteger(amount) || amount <= 0) return { ok: false, message: 'More than zero.' };
  return { ok: true, amount };
}
