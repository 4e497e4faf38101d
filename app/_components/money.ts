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
