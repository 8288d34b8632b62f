import {
  audioContent,
  defineTool,
  embeddedResourceContent,
  imageContent,
  type Tool,
  ToolError,
  textContent,
  toolResult,
} from '@toolshed/mcp-core';
import * as z from 'zod';
import { redPixelPng, silentWav } from './fixture-media.ts';

const noArguments = z.object({});
const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

const contentTools: Tool[] = [
  defineTool({
    name: 'test_simple_text',
    description: 'Tests simple text content response',
    input: noArguments,
    run: () => 'This is a simple text response for testing.',
  }),
  defineTool({
    name: 'test_image_content',
    description: 'Tests image content response',
    input: noArguments,
    run: () => toolResult([imageContent(redPixelPng, 'image/png')]),
  }),
  defineTool({
    name: 'test_audio_content',
    description: 'Tests audio content response',
    input: noArguments,
    run: () => toolResult([audioContent(silentWav, 'audio/wav')]),
  }),
  defineTool({
    name: 'test_embedded_resource',
    description: 'Tests embedded resource content response',
    input: noArguments,
    run: () =>
      toolResult([
        embeddedResourceContent({
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        }),
      ]),
  }),
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Tests response with multiple content types (text, image, resource)',
    input: noArguments,
    run: () =>
      toolResult([
        textContent('Multiple content types test:'),
        imageContent(redPixelPng, 'image/png'),
        embeddedResourceContent({
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        }),
      ]),
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Tests error response handling',
    input: noArguments,
    run: () => {
      throw new ToolError('This tool intentionally returns an error for testing');
    },
  }),
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
    input: z.object({
      name: z.string().optional(),
      address: z.object({ street: z.string().optional(), city: z.string().optional() }).optional(),
    }),
    advertisedInputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    run: (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
  }),
];

const streamingTools: Tool[] = [
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Tests tool that emits log messages during execution',
    input: noArguments,
    run: async (_args, ctx) => {
      ctx.log('info', 'Tool execution started');
      await sleep(50, ctx.signal);
      ctx.log('info', 'Tool processing data');
      await sleep(50, ctx.signal);
      ctx.log('info', 'Tool execution completed');
      return 'Tool with logging executed successfully';
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Tests tool that reports progress notifications',
    input: noArguments,
    run: async (_args, ctx) => {
      for (const step of [0, 50, 100]) {
        ctx.progress(step, 100, `Completed step ${step} of 100`);
        if (step < 100) await sleep(50, ctx.signal);
      }
      return 'Progress reported: 0, 50 and 100 of 100';
    },
  }),
  defineTool({
    name: 'test_reconnection',
    description:
      'Tests SSE stream disconnection and client reconnection (SEP-1699): the server closes the stream mid-call and the result arrives after the client reconnects.',
    input: noArguments,
    run: async (_args, ctx) => {
      ctx.closeStream();
      await sleep(100, ctx.signal);
      return 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.';
    },
  }),
];

const clientRequestTools: Tool[] = [
  defineTool({
    name: 'test_sampling',
    description: 'Tests server-initiated sampling (LLM completion request)',
    input: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
    run: async ({ prompt }, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      const text = answer.content.type === 'text' ? answer.content.text : `(${answer.content.type} content)`;
      return `LLM response: ${text}`;
    },
  }),
  defineTool({
    name: 'test_elicitation',
    description: 'Tests server-initiated elicitation (user input request)',
    input: z.object({ message: z.string().describe('The message to show the user') }),
    run: async ({ message }, ctx) => {
      const outcome = await ctx.elicit({
        message,
        schema: z.object({
          username: z.string().describe("User's response"),
          email: z.string().describe("User's email address"),
        }),
      });
      const content = outcome.action === 'accept' ? outcome.content : {};
      return `User response: action=${outcome.action}, content=${JSON.stringify(content)}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Tests elicitation with default values per SEP-1034',
    input: noArguments,
    run: async (_args, ctx) => {
      const outcome = await ctx.elicit({
        message: 'Please review and update the form fields with defaults',
        schema: z.object({
          name: z.string().describe('User name').default('John Doe'),
          age: z.int().describe('User age').default(30),
          score: z.number().describe('User score').default(95.5),
          status: z.enum(['active', 'inactive', 'pending']).describe('User status').default('active'),
          verified: z.boolean().describe('Verification status').default(true),
        }),
      });
      const content = outcome.action === 'accept' ? outcome.content : {};
      return `Elicitation completed: action=${outcome.action}, content=${JSON.stringify(content)}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Tests elicitation with enum schema improvements per SEP-1330',
    input: noArguments,
    run: async (_args, ctx) => {
      const choice = (values: [string, ...string[]]) => z.enum(values).optional();
      const outcome = await ctx.elicit({
        message: 'Please select options from the enum fields',
        schema: z.object({
          untitledSingle: choice(['option1', 'option2', 'option3']),
          titledSingle: choice(['value1', 'value2', 'value3']),
          legacyEnum: choice(['opt1', 'opt2', 'opt3']),
          untitledMulti: z
            .array(z.enum(['option1', 'option2', 'option3']))
            .min(1)
            .max(3)
            .optional(),
          titledMulti: z
            .array(z.enum(['value1', 'value2', 'value3']))
            .min(1)
            .max(3)
            .optional(),
        }),
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Select one option',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
          required: [],
        },
      });
      const content = outcome.action === 'accept' ? outcome.content : {};
      return `Elicitation completed: action=${outcome.action}, content=${JSON.stringify(content)}`;
    },
  }),
];

/** Every tool the official conformance suite calls, by the names and shapes its scenarios expect. */
export const fixtureTools: readonly Tool[] = [...contentTools, ...streamingTools, ...clientRequestTools];
