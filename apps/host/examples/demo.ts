/**
 * The quick-start demo: starts `toolshed` on its embedded defaults (all five
 * Toolshed servers on sample data) as a child process, connects the official
 * MCP SDK client to it over stdio, lists the tools by server and makes a few
 * real calls.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

type Block = { type: string; text?: string; mimeType?: string; data?: string; uri?: string };

const cli = new URL('../src/cli.ts', import.meta.url).pathname;
const client = new Client({ name: 'toolshed-demo', version: '0.1.0' });
const started = performance.now();
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'serve'],
    env: process.env as Record<string, string>,
    stderr: 'inherit',
  }),
);
const info = client.getServerVersion();
console.log(
  `Connected to ${info?.title ?? info?.name} ${info?.version} over stdio in ${(performance.now() - started).toFixed(0)} ms\n`,
);

const { tools } = await client.listTools();
const byServer = new Map<string, string[]>();
for (const tool of tools) {
  const [server = '', ...rest] = tool.name.split('_');
  byServer.set(server, [...(byServer.get(server) ?? []), rest.join('_')]);
}
console.log(`${tools.length} tools from ${byServer.size} servers:`);
for (const [server, names] of byServer) console.log(`  ${server.padEnd(8)} ${names.join(', ')}`);

async function show(title: string, name: string, args: Record<string, unknown>): Promise<void> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: Block[];
    isError?: boolean;
    structuredContent?: unknown;
  };
  console.log(`\n▸ ${title}\n  ${name} ${JSON.stringify(args)}`);
  const lines: string[] = [];
  if (result.structuredContent !== undefined && result.isError !== true) {
    // A text result in the reference filesystem server's shape, `{content: text}`: the text as lines, then the rest.
    const { content, ...fields } = result.structuredContent as Record<string, unknown>;
    if (typeof content === 'string') {
      lines.push(...content.slice(0, 400).trimEnd().split('\n'));
      if (Object.keys(fields).length > 0) lines.push(JSON.stringify(fields).slice(0, 400));
    } else {
      lines.push(JSON.stringify(result.structuredContent).slice(0, 400));
    }
  } else {
    lines.push(...result.content.filter((block) => block.type === 'text').map((block) => block.text ?? ''));
  }
  for (const block of result.content) {
    if (block.type === 'image')
      lines.push(`[image ${block.mimeType}, ${Math.floor(((block.data ?? '').length * 3) / 4)} bytes]`);
    if (block.type === 'resource_link') lines.push(`[link ${block.uri}]`);
  }
  console.log(`${result.isError === true ? '  error: ' : '  '}${lines.join('\n  ')}`);
}

await show('Read-only SQL on the sample library', 'sql_query', {
  sql: "SELECT b.title, a.name AS author, b.year FROM books b JOIN authors a ON a.id = b.author_id WHERE b.genre = 'science fiction' ORDER BY b.year",
});
await show('A file from the sample workspace', 'files_read_text_file', { path: 'notes/reading-list.md' });
await show('What the sample picture is', 'image_image_info', { path: 'pictures/seaside.png' });
await show('A thumbnail the model can see', 'image_process_image', {
  path: 'pictures/seaside.png',
  operations: [{ op: 'thumbnail', size: 96 }],
});
await show('An email, previewed (the outbox is the only place mail goes)', 'email_preview_email', {
  to: 'outbox@toolshed.invalid',
  subject: 'Reading list',
  text: 'Piranesi next.',
});
await show('Live weather (a clear error when this machine is offline)', 'weather_get_current_weather', {
  location: 'Berlin',
});
await show('A write the host refuses without a human yes (this client cannot ask)', 'files_write_file', {
  path: 'notes/new.md',
  content: 'hello',
});

await client.close();
