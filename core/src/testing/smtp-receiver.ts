import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** One message as the receiver got it: the envelope's sender and recipients, and the raw text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpReceiver {
  port: number;
  /** `smtp://127.0.0.1:<port>`, for `TRACKER_SMTP_URL`. */
  url: string;
  /** Every message, in the order received. */
  messages: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on loopback that keeps every message: the receiver of the
 * tests of alert, invitation, assignment and usage-warning emails. No TLS and no auth, as a
 * local relay would be. `into` collects the messages in an array the test already holds;
 * `onRcptTo` lets a test refuse recipients (smtp-server's own hook); `delayMs` holds each message's
 * answer that long (a slow relay: a request that waits for its email shows it in its time).
 */
export async function startSmtpReceiver(
  options: { into?: ReceivedMail[]; onRcptTo?: SMTPServerOptions['onRcptTo']; delayMs?: number } = {},
): Promise<SmtpReceiver> {
  const messages = options.into ?? [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    ...(options.onRcptTo ? { onRcptTo: options.onRcptTo } : {}),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        if (options.delayMs) setTimeout(() => callback(), options.delayMs);
        else callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
