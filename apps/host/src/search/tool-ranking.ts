import type { ToolDescriptor } from '@toolshed/mcp-core';

/** Words that say nothing about what a tool does. */
const stopWords = new Set(
  'a an and are as at be by can do for from how i in into is it its me my of on or so the this that to use with'.split(
    ' ',
  ),
);

/** The fields a match counts in, by weight: a word in a tool's name says more than one in its description. */
const fieldWeights = { name: 3, parameters: 2, description: 1 } as const;

/** BM25's usual constants: how fast repeated words stop adding, and how much long documents are discounted. */
const saturation = 1.2;
const lengthNormalisation = 0.75;

/** Lower case, camelCase and snake_case split, plurals folded (`readFiles` → `read file`). */
export function searchTerms(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !stopWords.has(word))
    .map((word) => {
      if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
      if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
      return word;
    });
}

/**
 * What a schema says about its parameters, anywhere in it (nested objects,
 * array items, alternatives, to a sane depth): their names and the words a
 * value may be (`enum`, `const`), and separately their descriptions, where
 * a pipeline tool lists what its steps do ("resize", "crop").
 */
function parameterTerms(schema: unknown, found = { names: [] as string[], descriptions: [] as string[] }, depth = 0) {
  if (depth > 6 || schema === null || typeof schema !== 'object') return found;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum)) found.names.push(...node.enum.filter((value) => typeof value === 'string'));
  if (typeof node.const === 'string') found.names.push(node.const);
  if (depth > 0 && typeof node.description === 'string') found.descriptions.push(node.description);
  if (node.properties !== null && typeof node.properties === 'object') {
    for (const [name, property] of Object.entries(node.properties)) {
      found.names.push(name);
      parameterTerms(property, found, depth + 1);
    }
  }
  if (node.items !== undefined) parameterTerms(node.items, found, depth + 1);
  for (const alternatives of [node.anyOf, node.oneOf]) {
    if (Array.isArray(alternatives)) for (const branch of alternatives) parameterTerms(branch, found, depth + 1);
  }
  return found;
}

/** A tool as a bag of weighted terms. */
function weightedTerms(name: string, descriptor: ToolDescriptor): Map<string, number> {
  const counts = new Map<string, number>();
  const count = (text: string, weight: number) => {
    for (const term of searchTerms(text)) counts.set(term, (counts.get(term) ?? 0) + weight);
  };
  count(`${name} ${descriptor.title ?? ''}`, fieldWeights.name);
  const parameters = parameterTerms(descriptor.inputSchema);
  count(parameters.names.join(' '), fieldWeights.parameters);
  count(`${descriptor.description ?? ''} ${parameters.descriptions.join(' ')}`, fieldWeights.description);
  return counts;
}

export interface RankableTool {
  /** The name the tool is called by. */
  name: string;
  descriptor: ToolDescriptor;
}

/**
 * The tools that best match a query, best first, at most `limit`: BM25 over
 * each tool's name, parameter names and descriptions (its own and its
 * parameters'), weighted in that order. Tools that share no term with the query are left out; equal scores
 * are ordered by name, so the same query always gives the same answer.
 */
export function rankTools<Tool extends RankableTool>(tools: readonly Tool[], query: string, limit: number): Tool[] {
  const queryTerms = [...new Set(searchTerms(query))];
  if (queryTerms.length === 0 || tools.length === 0) return [];
  const documents = tools.map((tool) => {
    const terms = weightedTerms(tool.name, tool.descriptor);
    let length = 0;
    for (const weight of terms.values()) length += weight;
    return { tool, terms, length };
  });
  const averageLength = documents.reduce((sum, document) => sum + document.length, 0) / documents.length;
  const inverseFrequency = new Map(
    queryTerms.map((term) => {
      const holders = documents.filter((document) => document.terms.has(term)).length;
      return [term, Math.log(1 + (documents.length - holders + 0.5) / (holders + 0.5))];
    }),
  );
  return documents
    .map(({ tool, terms, length }) => {
      let score = 0;
      for (const term of queryTerms) {
        const frequency = terms.get(term) ?? 0;
        if (frequency === 0) continue;
        const discount = 1 - lengthNormalisation + (lengthNormalisation * length) / averageLength;
        score +=
          ((inverseFrequency.get(term) ?? 0) * frequency * (saturation + 1)) / (frequency + saturation * discount);
      }
      return { tool, score };
    })
    .filter((ranked) => ranked.score > 0)
    .sort((left, right) => right.score - left.score || (left.tool.name < right.tool.name ? -1 : 1))
    .slice(0, limit)
    .map((ranked) => ranked.tool);
}
