import { acceptedContent, inputRequired, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** What a fixture server saw, shared by every instance the SDK's serving entries make of it. */
export interface ModernFixtureState {
  /** Tools added at run time by `add_tool`. */
  extraTools: string[];
  /** Calls of `slow_count` that saw their cancellation. */
  cancelled: number;
  /** The answers `greet` and `order_pizza` were retried with, in order. */
  answers: unknown[];
  /** Called after `add_tool`, for a serving entry that announces changes itself (HTTP). */
  toolsChanged?: () => void;
}

export function createModernFixtureState(): ModernFixtureState {
  return { extraTools: [], cancelled: 0, answers: [] };
}

const nameForm = z.object({ name: z.string() });
const sizeForm = z.object({ size: z.string() });
const toppingForm = z.object({ topping: z.string() });

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

function registerExtraTool(server: McpServer, name: string): void {
  server.registerTool(
    name,
    { description: `A tool added at run time (${name}).`, inputSchema: z.object({}) },
    async () => text(name),
  );
}

/**
 * An official SDK v2 server for the host's era tests: the same tools in both
 * eras (the SDK turns `inputRequired` into elicitation requests for legacy
 * clients), asking its questions the modern way, in one round or several.
 */
export function buildModernFixtureServer(state: ModernFixtureState): McpServer {
  const server = new McpServer({ name: 'sdk-modern-fixture', version: '2.4.0' });
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers.',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      annotations: { readOnlyHint: true },
    },
    async ({ a, b }) => ({ ...text(String(a + b)), structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    'whoami',
    { description: 'The process serving the call.', inputSchema: z.object({}), annotations: { readOnlyHint: true } },
    async () => text(String(process.pid)),
  );
  server.registerTool(
    'greet',
    {
      description: 'Asks the user their name, then greets them.',
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true },
    },
    async (_args, context) => {
      const answer = acceptedContent(context.mcpReq.inputResponses, 'name', nameForm);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: { name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: nameForm }) },
        });
      }
      state.answers.push(answer);
      console.error(`greet was answered: ${answer.name}`);
      return text(`Hello, ${answer.name}!`);
    },
  );
  server.registerTool(
    'order_pizza',
    {
      description: 'Asks for a size, then a topping, then orders.',
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true },
    },
    async (_args, context) => {
      const size =
        acceptedContent(context.mcpReq.inputResponses, 'size', sizeForm)?.size ?? context.mcpReq.requestState<string>();
      if (size === undefined) {
        return inputRequired({
          inputRequests: { size: inputRequired.elicit({ message: 'Which size?', requestedSchema: sizeForm }) },
        });
      }
      const topping = acceptedContent(context.mcpReq.inputResponses, 'topping', toppingForm)?.topping;
      if (topping === undefined) {
        // The size rides in requestState: the retry that brings the topping does not bring the size again.
        return inputRequired({
          inputRequests: { topping: inputRequired.elicit({ message: 'Which topping?', requestedSchema: toppingForm }) },
          requestState: size,
        });
      }
      state.answers.push({ size, topping });
      return text(`Ordered a ${size} pizza with ${topping}.`);
    },
  );
  server.registerTool(
    'ask_model',
    {
      description: "Asks the caller's model a question and lists the caller's roots, in one round.",
      inputSchema: z.object({ question: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ question }, context) => {
      const responses = context.mcpReq.inputResponses as
        | { reply?: { content?: { text?: string } }; roots?: { roots?: { uri: string }[] } }
        | undefined;
      if (responses?.reply === undefined || responses.roots === undefined) {
        return inputRequired({
          inputRequests: {
            reply: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: question } }],
              maxTokens: 50,
            }),
            roots: inputRequired.listRoots(),
          },
        });
      }
      const roots = (responses.roots.roots ?? []).map((root) => root.uri).join(', ');
      return text(`The model said "${responses.reply.content?.text}"; the roots are ${roots}.`);
    },
  );
  server.registerTool(
    'endless_questions',
    { description: 'Never satisfied.', inputSchema: z.object({}), annotations: { readOnlyHint: true } },
    async (_args, context) => {
      const round = Number(context.mcpReq.requestState<string>() ?? '0') + 1;
      return inputRequired({
        inputRequests: {
          name: inputRequired.elicit({ message: `Round ${round}: your name?`, requestedSchema: nameForm }),
        },
        requestState: String(round),
      });
    },
  );
  server.registerTool(
    'slow_count',
    {
      description: 'Counts to `to`, one step every `stepMs`, reporting progress.',
      inputSchema: z.object({ to: z.number(), stepMs: z.number() }),
      annotations: { readOnlyHint: true },
    },
    async ({ to, stepMs }, context) => {
      for (let step = 1; step <= to; step++) {
        await new Promise((resolve) => setTimeout(resolve, stepMs));
        if (context.mcpReq.signal.aborted) {
          state.cancelled += 1;
          console.error('slow_count saw its cancellation');
          return text('cancelled');
        }
        const progressToken = context.mcpReq._meta?.progressToken;
        if (progressToken !== undefined) {
          await context.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: to },
          });
        }
      }
      return text(`counted to ${to}`);
    },
  );
  server.registerTool(
    'add_tool',
    {
      description: 'Adds a tool named `name` to this server.',
      inputSchema: z.object({ name: z.string() }),
      annotations: { destructiveHint: false },
    },
    async ({ name }) => {
      state.extraTools.push(name);
      registerExtraTool(server, name);
      state.toolsChanged?.();
      return text(`added ${name}`);
    },
  );
  for (const name of state.extraTools) registerExtraTool(server, name);
  return server;
}
