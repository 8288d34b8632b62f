import type { DovecotServer } from '../src/__fixtures__/dovecot-server.ts';

const senders = 200;

/** The sender whose messages a bench round searches for: 50 of every 10,000, a different one each round. */
export function benchSender(round: number): string {
  return `sender${(round * 37) % senders}@bench.example`;
}

/** Mail of varied size, a fifth of it plain text with an HTML alternative. */
function benchMessage(index: number): string {
  const sender = index % senders;
  const paragraph = `Line ${index} of a message about order ${index * 7}, with enough words to look like mail. `;
  const body = paragraph.repeat(20 + (index % 40));
  const day = String((index % 28) + 1).padStart(2, '0');
  const common = [
    `From: Sender ${sender} <sender${sender}@bench.example>`,
    'To: reader@example.com',
    `Subject: Order ${index} update ${index % 3 === 0 ? '(shipped)' : ''}`,
    `Date: Tue, ${day} Oct 2026 09:00:00 +0000`,
    `Message-ID: <bench-${index}@bench.example>`,
    'MIME-Version: 1.0',
  ];
  if (index % 5 === 0) {
    return [
      ...common,
      'Content-Type: multipart/alternative; boundary="alt"',
      '',
      '--alt',
      'Content-Type: text/plain; charset=utf-8',
      '',
      body,
      '--alt',
      'Content-Type: text/html; charset=utf-8',
      '',
      `<html><body><p>${body}</p><div style="display:none">hidden</div></body></html>`,
      '--alt--',
      '',
    ].join('\r\n');
  }
  return [...common, 'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\r\n');
}

/** Fills the INBOX with `count` messages, written straight into the maildir. */
export function fillBenchMailbox(dovecot: DovecotServer, count: number): void {
  const batch: string[] = [];
  for (let index = 1; index <= count; index++) {
    batch.push(benchMessage(index));
    if (batch.length === 1000 || index === count) dovecot.deliver('INBOX', batch.splice(0));
  }
}
