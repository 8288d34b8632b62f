/**
 * What a server's tool list costs a model: the o200k_base tokens of the list as
 * JSON, each tool reduced to its name, description and input schema, which is
 * what clients put in the model's tool definitions on every turn (outputSchema,
 * title and annotations are not sent to the model by the common clients). The
 * same counter measured the anchors in issue 29, so the figures compare. The
 * budgets are the bars in DESIGN.md; each server's token-budget test and
 * `pnpm bench:tokens` use them.
 *
 * @module
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/** A tool as `tools/list` gives it; only the fields a model sees are counted. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export interface ToolListTokens {
  /** Tokens of the whole list. */
  total: number;
  /** Tokens of each tool, in list order. */
  tools: { name: string; tokens: number }[];
}

/** The most a server's tool list may cost, by server. */
export const toolListTokenBudgets: { readonly [server in ServerName]: number } = {
  sql: 400,
  filesystem: 1760,
  weather: 1000,
  email: 800,
  image: 2000,
};

export type ServerName = 'sql' | 'filesystem' | 'weather' | 'email' | 'image';

/** The most a single tool may cost, in any server. */
export const toolTokenBudget = 400;

/** The part of a tool a model sees, without the fields `tools/list` adds for the client. */
function modelView(tool: ListedTool): ListedTool {
  return { name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema };
}

export function countToolTokens(tool: ListedTool): number {
  return encode(JSON.stringify(modelView(tool))).length;
}

/** Whether a model sees a tool at all: an app-only tool (MCP Apps `visibility` without "model") is for views. */
function seenByModel(tool: ListedTool): boolean {
  const visibility = (tool._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return !Array.isArray(visibility) || visibility.includes('model');
}

/** What the tools a model sees cost; app-only tools are left out. */
export function countToolListTokens(tools: readonly ListedTool[]): ToolListTokens {
  const seen = tools.filter(seenByModel);
  return {
    total: encode(JSON.stringify(seen.map(modelView))).length,
    tools: seen.map((tool) => ({ name: tool.name, tokens: countToolTokens(tool) })),
  };
}

/**
 * What is over budget in a server's tool list, one line each; empty when it
 * fits. A test expects it to be empty, so a failure names the tools to trim.
 */
export function toolTokenOverruns(server: ServerName, tools: readonly ListedTool[]): string[] {
  const counted = countToolListTokens(tools);
  const overruns = counted.tools
    .filter((tool) => tool.tokens > toolTokenBudget)
    .map((tool) => `${tool.name}: ${tool.tokens} tokens, over the ${toolTokenBudget} a tool may cost`);
  const budget = toolListTokenBudgets[server];
  if (counted.total > budget) {
    const byCost = [...counted.tools].sort((left, right) => right.tokens - left.tokens);
    overruns.push(
      `${server}: ${counted.total} tokens, over its budget of ${budget} (${byCost.map((tool) => `${tool.name} ${tool.tokens}`).join(', ')})`,
    );
  }
  return overruns;
}
