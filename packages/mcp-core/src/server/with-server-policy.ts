import type * as z from 'zod';
import type { CallContext } from '../engine/call-context.ts';
import { canElicitForm } from '../engine/client-answers.ts';
import { type AskUser, confirmAction, elicitForm } from '../engine/create-elicitation.ts';
import type { ElicitationUnavailablePolicy } from '../engine/server-core.ts';
import { missingClientCapability } from '../errors/common-protocol-errors.ts';
import { redactSecrets } from '../logging/redact-secrets.ts';
import { isModernProtocolVersion } from '../protocol/protocol-version.ts';

/** Any form answer: the tool's own schema checks it. Built on the first question, not at start. */
let anyAnswer: z.ZodObject<Record<string, never>, z.core.$loose> | undefined;

/**
 * A caller's context as this server's tools see it: the caller asks, unless
 * its client cannot show a form, which this server's policy answers as its
 * own connections in that era would.
 */
export function withServerPolicy(context: CallContext, policy: ElicitationUnavailablePolicy): CallContext {
  const ask: AskUser = async (message, requestedSchema, key) => {
    if (!canElicitForm(context.client.capabilities, context.protocolVersion)) {
      // The 2026 revision's rule for a request that needs an undeclared capability, as a 2026 request would get it.
      if (policy === 'fail' && isModernProtocolVersion(context.protocolVersion)) {
        throw missingClientCapability({ elicitation: { form: {} } }, 'this request needs an answer from the user');
      }
      return { action: 'unavailable', reason: 'the client did not declare the elicitation capability' };
    }
    // The form as given, checked against the tool's own schema by elicitForm once answered.
    // Imported here, not at start: the engine never imports zod up front, so a server without it never loads it.
    anyAnswer ??= (await import('zod')).looseObject({});
    return context.elicit({ message, schema: anyAnswer, requestedSchema, ...(key === undefined ? {} : { key }) });
  };
  return {
    signal: context.signal,
    protocolVersion: context.protocolVersion,
    client: context.client,
    auth: context.auth,
    progress: (done, total, message) => context.progress(done, total, message),
    log: (level, data, logger) => context.log(level, redactSecrets(data), logger),
    elicit: (request) => elicitForm(ask, policy, request),
    confirm: (message) => confirmAction(ask, policy, message),
    sample: (request) => context.sample(request),
    roots: () => context.roots(),
    closeStream: () => context.closeStream(),
    continueAsTask: (statusMessage) => context.continueAsTask(statusMessage),
  };
}
