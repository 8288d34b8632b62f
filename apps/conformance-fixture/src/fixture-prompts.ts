import { definePrompt, type Prompt } from '@toolshed/mcp-core';
import * as z from 'zod';
import { redPixelPng } from './fixture-media.ts';

export const fixturePrompts: readonly Prompt[] = [
  definePrompt({
    name: 'test_simple_prompt',
    title: 'Simple Test Prompt',
    description: 'A simple prompt without arguments',
    get: () => 'This is a simple prompt for testing.',
  }),
  definePrompt({
    name: 'test_prompt_with_arguments',
    title: 'Prompt With Arguments',
    description: 'A prompt with required arguments',
    arguments: z.object({
      arg1: z.string().describe('First test argument'),
      arg2: z.string().describe('Second test argument'),
    }),
    complete: { arg1: ['paris', 'park', 'party', 'test', 'testValue1'] },
    get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  }),
  definePrompt({
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource',
    arguments: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    get: ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  }),
  definePrompt({
    name: 'test_prompt_with_image',
    title: 'Prompt With Image',
    description: 'A prompt that includes image content',
    get: () => [
      { role: 'user', content: { type: 'image', data: redPixelPng, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }),
  definePrompt({
    name: 'test_input_required_result_prompt',
    title: 'Prompt That Asks First',
    description: 'A prompt that asks the user for context before it is built',
    get: async (_args, context) => {
      const outcome = await context.elicit({
        key: 'user_context',
        message: 'What context should the prompt use?',
        schema: z.object({ context: z.string() }),
      });
      const given = outcome.action === 'accept' ? outcome.content.context : 'none given';
      return `Answer with this context in mind: ${given}`;
    },
  }),
];
