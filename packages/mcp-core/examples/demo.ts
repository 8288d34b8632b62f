/**
 * The quick-start demo: starts the example server as a child process, connects
 * the official MCP SDK client to it over stdio, lists the tools and calls two.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const serverPath = new URL('./example-server.ts', import.meta.url).pathname;
const client = new Client({ name: 'toolshed-demo', version: '0.1.0' });
const started = performance.now();
await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverPath], stderr: 'inherit' }));
const info = client.getServerVersion();
console.log(
  `Connected to ${info?.title ?? info?.name} ${info?.version} over stdio in ${(performance.now() - started).toFixed(0)} ms`,
);
console.log(`Instructions: ${client.getInstructions()}\n`);

const { tools } = await client.listTools();
console.log('Tools:');
for (const tool of tools) {
  const hints = Object.entries(tool.annotations ?? {})
    .filter(([, value]) => value === true)
    .map(([key]) => key.replace(/Hint$/, ''));
  console.log(`  ${tool.name.padEnd(14)} ${tool.description}${hints.length > 0 ? ` [${hints.join(', ')}]` : ''}`);
}

const sum = await client.callTool({ name: 'add', arguments: { a: 19, b: 23 } });
console.log(`\nadd(19, 23) → ${JSON.stringify(sum.structuredContent)}`);

const progressLines: string[] = [];
const counted = await client.callTool({ name: 'count_slowly', arguments: { to: 3, stepMs: 50 } }, undefined, {
  onprogress: (progress) => progressLines.push(`${progress.progress}/${progress.total}`),
});
const countText = (counted.content as { type: string; text?: string }[]).find((block) => block.type === 'text')?.text;
console.log(`count_slowly(3) → progress ${progressLines.join(', ')} → "${countText}"`);

const bad = await client.callTool({ name: 'add', arguments: { a: 'nineteen' } });
const badText = (bad.content as { type: string; text?: string }[])[0]?.text;
console.log(`add("nineteen") → isError: ${bad.isError}\n${badText?.replace(/^/gm, '    ')}`);

await client.close();
