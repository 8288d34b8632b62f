/** A plain text message, as a mail server stores it. */
export function textMessage(options: {
  from?: string;
  to?: string;
  subject: string;
  text: string;
  date?: string;
  messageId?: string;
  headers?: string[];
}): string {
  return [
    `From: ${options.from ?? 'Landlord <landlord@example.net>'}`,
    `To: ${options.to ?? 'reader@example.com'}`,
    `Subject: ${options.subject}`,
    `Date: ${options.date ?? 'Tue, 10 Nov 2026 09:00:00 +0000'}`,
    `Message-ID: ${options.messageId ?? `<${Math.random().toString(36).slice(2)}@example.net>`}`,
    ...(options.headers ?? []),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    options.text,
    '',
  ].join('\r\n');
}

/** An HTML-only message. */
export function htmlMessage(options: { from?: string; subject: string; html: string }): string {
  return [
    `From: ${options.from ?? 'Shop <news@shop.example>'}`,
    'To: reader@example.com',
    `Subject: ${options.subject}`,
    'Date: Wed, 11 Nov 2026 10:00:00 +0000',
    `Message-ID: <${Math.random().toString(36).slice(2)}@shop.example>`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    options.html.replace(/=/g, '=3D'),
    '',
  ].join('\r\n');
}

/** A message with a text body and attachments, each base64-encoded under the name given (used as is). */
export function messageWithAttachments(options: {
  subject: string;
  text: string;
  attachments: { filename: string; contentType?: string; content: Buffer }[];
}): string {
  const boundary = `b${Math.random().toString(36).slice(2)}`;
  const parts = options.attachments.map((attachment) =>
    [
      `--${boundary}`,
      `Content-Type: ${attachment.contentType ?? 'application/octet-stream'}; name="${attachment.filename}"`,
      `Content-Disposition: attachment; filename="${attachment.filename}"`,
      'Content-Transfer-Encoding: base64',
      '',
      attachment.content.toString('base64').replace(/.{76}/g, '$&\r\n').trimEnd(),
    ].join('\r\n'),
  );
  return [
    'From: Accounts <billing@vendor.example>',
    'To: reader@example.com',
    `Subject: ${options.subject}`,
    'Date: Sun, 15 Mar 2026 08:00:00 +0000',
    `Message-ID: <${Math.random().toString(36).slice(2)}@vendor.example>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    options.text,
    ...parts,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
