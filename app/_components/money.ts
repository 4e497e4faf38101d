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

/** How many minor digits a currency has (ISO 4217: EUR 2, JPY 0, KWD 3); 2 for a code the runtime does not know. */
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

/** An amount typed in major units ("45", "45.5", "45,50") as integer minor units, or null when it is not one. */
export function toMinorUnits(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const match = /^(\d{1,12})(?:[.,](\d+))?$/.exec(text.trim());
  if (!match || (match[2]?.length ?? 0) > digits) return null;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || 0);
}

/** Integer minor units as the major-unit text an input shows ("4500" EUR → "45.00"). */
export function fromMinorUnits(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  if (digits === 0) return String(amount);
  const text = String(amount).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
