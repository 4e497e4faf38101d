// How an instant reads in an IANA time zone, the same on every surface that shows one to a person:
// the dashboard (app/_components/zoned-time.ts re-exports these), and the messages the service
// sends a customer (a reminder's template text). Intl only: it runs in the browser and on the server.

/** "09:30" (24-hour) of an instant in `zone`. */
export function formatClock(ms: number | string | Date, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(ms));
}

/** "Tue 2 Mar 2027, 09:30" of an instant in `zone`. */
export function formatDateTime(ms: number | string | Date, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(ms));
}
