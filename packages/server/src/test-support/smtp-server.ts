import { SMTPServer } from 'smtp-server';

/** One message as it arrived on the loopback SMTP server. */
export interface CapturedEmail {
  readonly mailFrom: string;
  readonly rcptTo: string[];
  /** The raw DATA (headers and MIME body) as received. */
  readonly raw: string;
  /** Unfolded top-level headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** Decoded text/plain part ('' when absent). */
  readonly text: string;
  /** Decoded text/html part ('' when absent). */
  readonly html: string;
  /** The AUTH user name, if the client authenticated. */
  readonly user: string | undefined;
}

export interface TestSmtpServer {
  readonly port: number;
  /** `smtp://127.0.0.1:<port>`, with `user:password@` when given. */
  url(credentials?: { user: string; password: string }): string;
  readonly messages: CapturedEmail[];
  /** The messages so far with `address` among their recipients, oldest first. */
  to(address: string): CapturedEmail[];
  /** Resolves with the next message (or the n-th overall) once it has arrived. */
  waitFor(count: number): Promise<CapturedEmail[]>;
  close(): Promise<void>;
}

export interface TestSmtpServerOptions {
  /** Refuses every recipient with `550 <message>`. */
  rejectRecipients?: string;
}

/**
 * A real SMTP server on loopback (port 0) that keeps what it receives, so that tests read the email a
 * user would get. Any AUTH credentials are accepted; STARTTLS is off (plain loopback).
 */
export async function startTestSmtpServer(options: TestSmtpServerOptions = {}): Promise<TestSmtpServer> {
  const messages: CapturedEmail[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onRcptTo(_address, _session, callback) {
      if (options.rejectRecipients !== undefined) {
        const error = Object.assign(new Error(options.rejectRecipients), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom;
        messages.push({
          ...parseMessage(raw),
          raw,
          mailFrom: from === false ? '' : from.address,
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
        });
        for (const waiter of waiters.splice(0)) {
          if (messages.length >= waiter.count) waiter.resolve();
          else waiters.push(waiter);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    messages,
    url: (credentials) =>
      credentials === undefined
        ? `smtp://127.0.0.1:${port}`
        : `smtp://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}`,
    to: (address) => messages.filter((m) => m.rcptTo.includes(address)),
    waitFor: (count) =>
      messages.length >= count
        ? Promise.resolve(messages)
        : new Promise((resolve) => waiters.push({ count, resolve: () => resolve(messages) })),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A minimal MIME reader: enough for nodemailer's multipart/alternative with text and HTML parts. */
function parseMessage(raw: string): Pick<CapturedEmail, 'headers' | 'text' | 'html'> {
  const { headers, body } = splitHeaders(raw);
  const parts = { text: '', html: '' };
  collect(headers, body, parts);
  return { headers, ...parts };
}

function splitHeaders(entity: string): { headers: Record<string, string>; body: string } {
  const index = entity.search(/\r?\n\r?\n/);
  const head = index < 0 ? entity : entity.slice(0, index);
  const body = index < 0 ? '' : entity.slice(index).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function collect(headers: Record<string, string>, body: string, out: { text: string; html: string }): void {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary !== undefined) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const inner = splitHeaders(part.replace(/^\r?\n/, ''));
      collect(inner.headers, inner.body, out);
    }
    return;
  }
  const decoded = decodeBody(body, headers['content-transfer-encoding'] ?? '7bit');
  if (type.toLowerCase().startsWith('text/html')) out.html = decoded;
  else if (type.toLowerCase().startsWith('text/plain')) out.text = decoded;
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      // Escape literal % first, then turn =XX into %XX, so that decodeURIComponent sees only our escapes.
      const bytes = body
        .replace(/=\r?\n/g, '')
        .replace(/%/g, '%25')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`);
      return decodeURIComponent(bytes);
    }
    default:
      return body.replace(/\r?\n$/, '');
  }
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in headers such as Subject. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_m, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
    );
}
