/**
 * Every token a model reads is a cost: clients put each tool's name, description and input schema into the
 * model's context on every turn. Raise these budgets on purpose, not by accident.
 */
import { connectTestClient } from '@toolshed/mcp-core/testing';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { expect, it } from 'vitest';
import { createServer } from './create-server.ts';

const toolListBudget = 1000;
const toolBudget = 400;

it(`keeps the tool list within ${toolListBudget} tokens and each tool within ${toolBudget}`, async () => {
  const server = createServer();
  const connection = await connectTestClient({ server }, { client: 'v2-legacy', transport: 'memory' });
  try {
    const seen = (await connection.listTools()).map(({ name, description, inputSchema }) => ({
      name,
      description: description ?? '',
      inputSchema,
    }));
    for (const tool of seen) expect(encode(JSON.stringify(tool)).length, tool.name).toBeLessThanOrEqual(toolBudget);
    expect(encode(JSON.stringify(seen)).length).toBeLessThanOrEqual(toolListBudget);
  } finally {
    await connection.close();
    await server.close();
  }
});
