/**
 * The floor of the read bench: the least a stdio MCP server can do for
 * `search_messages` and `read_message`. A bare Node process answering
 * JSON-RPC lines, `initialize` and `tools/list` from constants (the two
 * tools with the server's own output schemas, so the client checks the same
 * shapes), and each call with the IMAP work of bench/imapflow-mail-reader.ts
 * — its commands — and an answer of the server's shape: the structured
 * content and a text block. No engine, no argument or output checks, no
 * fences, no caps, no snippet decoding beyond a byte slice. Set beside the
 * anchor and the bin, it shows what a process of its own, stdio and the
 * client cost before anything of ours does.
 *
 *   node imapflow-stdio-floor.ts PORT USER CA_FILE   (password in TOOLSHED_EMAIL_IMAP_PASSWORD)
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ImapFlow } from 'imapflow';
import { simpleParser } from 'mailparser';
import { toolJsonSchemas } from '../src/tool-json-schemas.ts';
import { hitsQuery, parserOptions, wholeMessageQuery } from './imapflow-mail-reader.ts';

const [port, user, caFile] = process.argv.slice(2);
const client = new ImapFlow({
  host: '127.0.0.1',
  port: Number(port),
  secure: true,
  auth: { user: user ?? '', pass: process.env.TOOLSHED_EMAIL_IMAP_PASSWORD ?? '' },
  tls: { ca: readFileSync(caFile ?? '', 'utf8') },
  logger: false,
  disableAutoIdle: true,
});
let opened: Promise<unknown> | undefined;

const tools = (['search_messages', 'read_message'] as const).map((name) => ({
  name,
  description: name,
  inputSchema: { type: 'object' },
  outputSchema: toolJsonSchemas[name].output,
}));

const addresses = (list: { name?: string | undefined; address?: string | undefined }[] | undefined) =>
  (list ?? []).map((entry) => (entry.name ? `${entry.name} <${entry.address ?? ''}>` : (entry.address ?? '')));

async function search(from: string, limit: number): Promise<Record<string, unknown>> {
  const found = (await client.search({ from }, { uid: true })) || [];
  const chosen = [...found].sort((left, right) => right - left).slice(0, limit);
  const messages: Record<string, unknown>[] = [];
  for await (const message of client.fetch(chosen, hitsQuery, { uid: true })) {
    messages.push({
      uid: message.uid,
      date: new Date(message.internalDate ?? 0).toISOString(),
      from: addresses(message.envelope?.from),
      to: addresses(message.envelope?.to),
      subject: message.envelope?.subject ?? '',
      flags: [...(message.flags ?? [])],
      size: message.size,
      has_attachments: false,
      snippet: message.bodyParts?.get('1')?.toString('utf8', 0, 160) ?? '',
    });
  }
  return { mailbox: 'INBOX', total: found.length, truncated: found.length > chosen.length, messages };
}

async function read(uid: number): Promise<Record<string, unknown>> {
  const message = await client.fetchOne(String(uid), wholeMessageQuery, { uid: true });
  if (message === false || message.source === undefined) throw new Error(`uid ${uid} missing`);
  const parsed = await simpleParser(message.source, parserOptions);
  const body = parsed.text ?? '';
  const list = (value: typeof parsed.to) => (value === undefined ? [] : [value].flat().map((item) => item.text));
  return {
    mailbox: 'INBOX',
    uid,
    ...(parsed.date === undefined ? {} : { date: parsed.date.toISOString() }),
    from: list(parsed.from),
    to: list(parsed.to),
    cc: list(parsed.cc),
    subject: parsed.subject ?? '',
    flags: [...(message.flags ?? [])],
    size: message.size ?? 0,
    body,
    body_characters: body.length,
    body_truncated: false,
    message_truncated: false,
    attachments: [],
  };
}

async function answer(method: string, params: Record<string, unknown>): Promise<unknown> {
  if (method === 'initialize') {
    return {
      protocolVersion: params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'imapflow-stdio-floor', version: '1.0.0' },
    };
  }
  if (method === 'tools/list') return { tools };
  if (method !== 'tools/call') return {};
  opened ??= client.connect().then(() => client.mailboxOpen('INBOX', { readOnly: true }));
  await opened;
  const args = params.arguments as { from: string; limit: number; uid: number };
  const structured = params.name === 'search_messages' ? await search(args.from, args.limit) : await read(args.uid);
  const text = params.name === 'read_message' ? (structured.body as string) : JSON.stringify(structured.messages);
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line) as { id?: number; method: string; params?: Record<string, unknown> };
  if (request.id === undefined) return;
  answer(request.method, request.params ?? {}).then(
    (result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: request.id, result })}\n`),
    (error: Error) =>
      process.stdout.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: error.message } })}\n`,
      ),
  );
});
process.stdin.on('end', () => process.exit(0));
