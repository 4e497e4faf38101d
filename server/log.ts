// Structured JSON logs, to stdout or, with LOG_FILE, appended to that file (the integration tests
// give each file and process its own, and scan them all for secrets: test/support/log-scan.ts). Credentials
// and secrets never reach a log line: the redact list covers the places they could appear if
// someone logs a request or a record by mistake.
import pino from 'pino';

const holder = globalThis as unknown as { __switchboardLog?: pino.Logger };

export function logger(): pino.Logger {
  holder.__switchboardLog ??= pino(
    {
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
          'secret_key',
          '*.secret_key',
          'secretKey',
          '*.secretKey',
          'secret',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    destination(),
  );
  return holder.__switchboardLog;
}

/** stdout, or LOG_FILE when set. Synchronous writes, so a line is on disk when the call returns (even before a SIGKILL). */
function destination(): pino.DestinationStream | undefined {
  const file = process.env.LOG_FILE;
  return file ? pino.destination({ dest: file, append: true, mkdir: true, sync: true }) : undefined;
}
