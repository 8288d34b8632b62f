import type { ServerCore } from '../engine/server-core.ts';
import { invalidParams } from '../errors/common-protocol-errors.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import type { JsonRpcParams } from '../messages/jsonrpc-message.ts';
import { type Completer, runCompleter } from './completer.ts';

function stringValues(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** Finds the completer for a prompt argument or a template variable; unknown prompts and templates are -32602. */
function findCompleter(core: ServerCore, ref: Record<string, unknown>, argumentName: string): Completer | undefined {
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
    const prompt = core.prompts.get(ref.name);
    if (prompt === undefined) throw invalidParams(`Unknown prompt: "${ref.name.slice(0, 100)}"`);
    return prompt.complete[argumentName];
  }
  if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    const template = core.resourceTemplates.list().find((candidate) => candidate.descriptor.uriTemplate === ref.uri);
    if (template === undefined) {
      if (core.resources.get(ref.uri) !== undefined) return undefined; // A fixed URI has nothing to complete.
      throw invalidParams(`Unknown resource template: "${ref.uri.slice(0, 200)}"`);
    }
    return template.complete[argumentName];
  }
  throw invalidParams(
    'completion/complete params.ref must be {type: "ref/prompt", name} or {type: "ref/resource", uri}',
  );
}

/** Answers completion/complete: at most 100 suggestions, with the total and whether there are more. */
export async function complete(core: ServerCore, params: JsonRpcParams): Promise<Record<string, unknown>> {
  const { ref, argument, context } = params;
  if (!isPlainObject(ref)) throw invalidParams('completion/complete needs params.ref');
  if (!isPlainObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw invalidParams('completion/complete needs params.argument with a name and a value, both strings');
  }
  const completer = findCompleter(core, ref, argument.name);
  const known = stringValues(isPlainObject(context) ? context.arguments : undefined);
  return { completion: await runCompleter(completer, argument.value, { arguments: known }) };
}
