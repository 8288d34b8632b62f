import { type CallContext, defineTool, type McpServer, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';

const noArguments = z.object({});

/** The server the trigger tools announce changes on; set once the server exists. */
export interface ServerReference {
  current: McpServer | undefined;
}

function askName(context: CallContext, key: string, message: string) {
  return context.elicit({ key, message, schema: z.object({ name: z.string() }) });
}

function askCapital(context: CallContext) {
  return context.sample({
    messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
    maxTokens: 100,
  });
}

async function greetByName(context: CallContext): Promise<string> {
  const outcome = await askName(context, 'user_name', 'What is your name?');
  return outcome.action === 'accept' ? `Hello, ${outcome.content.name}!` : `No name (${outcome.action})`;
}

function askToContinue(context: CallContext) {
  return context.elicit({ key: 'confirm', message: 'Continue?', schema: z.object({ ok: z.boolean() }) });
}

function samplingText(result: Awaited<ReturnType<CallContext['sample']>>): string {
  const content = result.content as { type?: string; text?: string };
  return content.type === 'text' ? (content.text ?? '') : `(${content.type} content)`;
}

/** The tools the 2026-07-28 scenarios call: capability and logging rules, list changes, and MRTR. */
export function modernTools(server: ServerReference): Tool[] {
  return [
    defineTool({
      name: 'test_missing_capability',
      description: 'Needs the client to sample; a client that did not declare sampling gets -32021',
      input: noArguments,
      run: async (_args, context) => `Sampled: ${samplingText(await askCapital(context))}`,
    }),
    defineTool({
      name: 'test_streaming_elicitation',
      description: 'Asks the user for a name; the question travels in the result, never as a request on the stream',
      input: noArguments,
      run: (_args, context) => greetByName(context),
    }),
    defineTool({
      name: 'test_logging_tool',
      description: 'Logs at several levels; without a requested log level nothing is sent',
      input: noArguments,
      run: (_args, context) => {
        context.log('debug', 'Logging tool started');
        context.log('info', 'Logging tool working');
        context.log('warning', 'Logging tool finished');
        return 'Logged three messages';
      },
    }),
    defineTool({
      name: 'test_trigger_tool_change',
      description: 'Announces a change to the tool list to every subscribed client',
      input: noArguments,
      run: () => {
        server.current?.notifyListChanged('tools');
        return 'Tool list change announced';
      },
    }),
    defineTool({
      name: 'test_trigger_prompt_change',
      description: 'Announces a change to the prompt list to every subscribed client',
      input: noArguments,
      run: () => {
        server.current?.notifyListChanged('prompts');
        return 'Prompt list change announced';
      },
    }),
    defineTool({
      name: 'test_input_required_result_elicitation',
      description: 'Asks the user for their name, then greets them',
      input: noArguments,
      run: (_args, context) => greetByName(context),
    }),
    defineTool({
      name: 'test_input_required_result_sampling',
      description: "Asks the client's model a question and returns its answer",
      input: noArguments,
      run: async (_args, context) => `The model said: ${samplingText(await askCapital(context))}`,
    }),
    defineTool({
      name: 'test_input_required_result_list_roots',
      description: "Lists the client's roots",
      input: noArguments,
      run: async (_args, context) => {
        const roots = (await context.roots()) ?? [];
        return `Roots: ${roots.map((root) => root.uri).join(', ') || '(none)'}`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_request_state',
      description: 'Asks for a confirmation that travels back with signed request state',
      input: noArguments,
      run: async (_args, context) => {
        const outcome = await askToContinue(context);
        return outcome.action === 'accept' && outcome.content.ok ? 'state-ok' : 'state-declined';
      },
    }),
    defineTool({
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks the user, the model and the client for roots at once',
      input: noArguments,
      run: async (_args, context) => {
        const [name, greeting, roots] = await Promise.all([
          askName(context, 'user_name', 'What is your name?'),
          context.sample({
            messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
            maxTokens: 50,
          }),
          context.roots(),
        ]);
        const who = name.action === 'accept' ? name.content.name : 'someone';
        return `${samplingText(greeting)} ${who}; ${roots?.length ?? 0} roots`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_multi_round',
      description: 'Asks for a name, then for a favourite colour, one round each',
      input: noArguments,
      run: async (_args, context) => {
        const name = await askName(context, 'step1', 'What is your name?');
        const colour = await context.elicit({
          key: 'step2',
          message: 'What is your favourite colour?',
          schema: z.object({ color: z.string() }),
        });
        const who = name.action === 'accept' ? name.content.name : 'someone';
        const what = colour.action === 'accept' ? colour.content.color : 'no colour';
        return `${who} likes ${what}`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_tampered_state',
      description: 'Asks for a confirmation whose request state is signed; altered state is refused',
      input: noArguments,
      run: async (_args, context) => {
        const outcome = await askToContinue(context);
        return outcome.action === 'accept' ? 'confirmed' : 'not confirmed';
      },
    }),
    defineTool({
      name: 'test_input_required_result_capabilities',
      description: 'Asks only what the client declared it can answer',
      input: noArguments,
      run: async (_args, context) => {
        const { capabilities } = context.client;
        const asked: Promise<unknown>[] = [];
        if (capabilities.elicitation !== undefined) asked.push(askName(context, 'user_name', 'What is your name?'));
        if (capabilities.sampling !== undefined) asked.push(askCapital(context));
        if (capabilities.roots !== undefined) asked.push(context.roots());
        await Promise.all(asked);
        return `Asked ${asked.length} declared capabilities`;
      },
    }),
  ];
}
