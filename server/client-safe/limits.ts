// Lengths of the fields people type in the dashboard, shared by the API's schemas and the
// dashboard's forms so the two cannot disagree. Client-safe: imports nothing.
export const LIMITS = {
  /** A booking's cancellation reason. */
  cancellationReason: 1000,
  /** A text message (WhatsApp's own limit). */
  messageText: 4096,
  /** An e-mail address (RFC 5321). */
  email: 320,
  /** A person's display name. */
  personName: 200,
  apiKeyName: 100,
  endpointDescription: 500,
  /** A password a person chooses: at least this many characters… */
  passwordMin: 8,
  /** …and at most this many (argon2 hashes any length; this bounds the work). */
  passwordMax: 1024,
} as const;
