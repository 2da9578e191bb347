import type { Transporter } from 'nodemailer';
import type { EmailTransport } from './transport.js';

/**
 * SMTP delivery through nodemailer, configured by one URL (`SVC_SMTP_URL`, for example
 * `smtps://user:password@smtp.example.com:465`). Timeouts are bounded so that a dead relay fails the
 * delivery instead of holding a sign-in request open.
 */
export function smtpTransport(url: string): EmailTransport {
  // Made at the first message: loading nodemailer costs every start of a process about a tenth of a
  // second, and many processes send nothing.
  let transporter: Promise<Transporter> | undefined;
  const open = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    ));
  return {
    async send(message) {
      const info = await (
        await open()
      ).sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      const messageId: unknown = (info as { messageId?: unknown }).messageId;
      return { messageId: typeof messageId === 'string' && messageId !== '' ? messageId : null };
    },
    close: () => void transporter?.then((opened) => opened.close()),
  };
}

/** The password of an SMTP URL (to keep it out of logs and failure details), or undefined. */
export function smtpUrlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    const password = decodeURIComponent(parsed.password);
    return password === '' ? [] : [password, parsed.password];
  } catch {
    return [];
  }
}
