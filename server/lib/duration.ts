const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses "250ms", "5s", "2m", "1h" (or a bare number of milliseconds) into milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration like 500ms, 5s, 2m or 1h`);
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 'ms']);
}
