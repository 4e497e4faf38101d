// Structured JSON logs. Credentials and secrets never reach a log line: the redact list covers the
// places they could appear if someone logs a request or a record by mistake.
import pino from 'pino';

const holder = globalThis as unknown as { __switchboardLog?: pino.Logger };

export function logger(): pino.Logger {
  holder.__switchboardLog ??= pino({
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
    base: { service: 'switchboard' },
    redact: {
      paths: [
        'authorization',
        '*.authorization',
        'headers.authorization',
        'password',
        '*.password',
        'access_token',
        'refresh_token',
        '*.access_token',
        '*.refresh_token',
        'key',
        'webhook_secret',
        '*.webhook_secret',
        'secret',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  });
  return holder.__switchboardLog;
}
