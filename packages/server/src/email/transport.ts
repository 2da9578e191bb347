/** A rendered message, ready for a transport. */
export interface OutgoingEmail {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * Delivers a message (SMTP in production, email/smtp-transport.ts). Throws when the provider refuses or
 * cannot be reached; the EmailService turns that into a `failed` delivery with a sanitized detail.
 */
export interface EmailTransport {
  send(message: OutgoingEmail): Promise<{ readonly messageId: string | null }>;
  /** Releases pooled connections. */
  close?(): void;
}
