// The same echo tool on the official SDK v1 (McpServer + StdioServerTransport).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const server = new McpServer({ name: 'sdk-v1-echo', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Returns the text unchanged.', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
