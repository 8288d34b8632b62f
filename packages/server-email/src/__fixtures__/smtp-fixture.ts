import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { selfSignedCertificate } from './self-signed-certificate.ts';

/** One message as the SMTP server received it. */
export interface ReceivedMessage {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
  /** The session was encrypted (STARTTLS or implicit TLS) when the message came in. */
  secure: boolean;
  user: string | undefined;
}

export interface SmtpFixtureOptions {
  /** `starttls` (default): plain greeting, STARTTLS offered. `tls`: TLS from the first byte. `none`: no TLS at all. */
  security?: 'starttls' | 'tls' | 'none';
  user?: string;
  password?: string;
  /** Recipients refused at RCPT TO, with the 550 text. */
  rejectRecipients?: Record<string, string>;
  /** Require XOAUTH2 instead of a password: a login passes when the token is valid now. */
  oauth2?: { isValid(token: string): boolean };
}

export interface SmtpFixture {
  host: string;
  port: number;
  /** The certificate clients must trust. */
  ca: string;
  received: ReceivedMessage[];
  /** Logins tried, successful or not. */
  logins: { user: string; ok: boolean }[];
  /** Makes the server answer the next DATA with nothing: the message arrives, the reply never does. */
  hangAfterNextData(): void;
  /** Makes the server refuse the next DATA with this 5xx or 4xx reply. */
  failNextData(code: number, text: string): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 with AUTH PLAIN/LOGIN and
 * STARTTLS on a freshly generated certificate. Every message that arrives is
 * kept raw and parsed with mailparser.
 */
export async function startSmtpFixture(options: SmtpFixtureOptions = {}): Promise<SmtpFixture> {
  const { key, cert } = selfSignedCertificate();
  const security = options.security ?? 'starttls';
  const user = options.user ?? 'sender@example.com';
  const password = options.password ?? 'correct horse battery staple';
  const received: ReceivedMessage[] = [];
  const logins: { user: string; ok: boolean }[] = [];
  let nextData: { hang: true } | { code: number; text: string } | undefined;
  const server = new SMTPServer({
    secure: security === 'tls',
    key,
    cert,
    ...(security === 'none' ? { disabledCommands: ['STARTTLS'], allowInsecureAuth: true } : {}),
    authMethods: options.oauth2 === undefined ? ['PLAIN', 'LOGIN'] : ['XOAUTH2'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.oauth2 !== undefined) {
        const ok =
          auth.method === 'XOAUTH2' && auth.username === user && options.oauth2.isValid(auth.accessToken ?? '');
        logins.push({ user: auth.username ?? '', ok });
        // RFC 7628's answer to a refused token: a JSON status the client acknowledges, then 535.
        if (!ok) callback(null, { data: { status: '401', schemes: 'bearer', scope: 'https://mail.example/' } });
        else callback(null, { user: auth.username });
        return;
      }
      const ok = auth.username === user && auth.password === password;
      logins.push({ user: auth.username ?? '', ok });
      if (!ok) {
        callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
        return;
      }
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      const refusal = options.rejectRecipients?.[address.address.toLowerCase()];
      if (refusal !== undefined) {
        callback(Object.assign(new Error(refusal), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const scripted = nextData;
        nextData = undefined;
        const keep = async () => {
          received.push({
            envelope: {
              from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
            },
            raw,
            parsed: await simpleParser(raw),
            secure: session.secure,
            user: typeof session.user === 'string' ? session.user : undefined,
          });
        };
        if (scripted !== undefined && 'hang' in scripted) {
          void keep();
          return;
        }
        if (scripted !== undefined) {
          callback(Object.assign(new Error(scripted.text), { responseCode: scripted.code }));
          return;
        }
        keep().then(
          () => callback(null, 'Queued'),
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    ca: cert,
    received,
    logins,
    hangAfterNextData() {
      nextData = { hang: true };
    },
    failNextData(code, text) {
      nextData = { code, text };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
