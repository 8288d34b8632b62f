import type { CallContext, CallToolResult } from '@toolshed/mcp-core';
import type { ApprovalBroker, ApprovalRequest, ApprovalVerdict } from '../console/approval-broker.ts';
import type { Upstream } from '../upstream/upstream.ts';

/** How often a waiting call tells its client it is still alive, so that the client's own time limit does not end it. */
const progressEveryMs = 5000;
/** A preview is a courtesy: one that takes longer is left out. */
const previewTimeLimitMs = 10_000;
const previewMaxCharacters = 4000;

/**
 * What the server would do, in its own words, when it has a read-only
 * `preview_<thing>` tool beside `<verb>_<thing>` (as the email server's
 * `preview_email` is to `send_email`): called with the same arguments, it is
 * pure by its annotation, so it may run before anyone has said yes.
 */
export async function previewOf(
  upstream: Upstream,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<string | undefined> {
  const thing = tool.slice(tool.indexOf('_') + 1);
  const preview = upstream.tools.find(
    (candidate) => candidate.name === `preview_${thing}` && candidate.annotations?.readOnlyHint === true,
  );
  if (preview === undefined || preview.name === tool) return undefined;
  try {
    const result = (await upstream.call(preview.name, args, {
      signal: AbortSignal.any([signal, AbortSignal.timeout(previewTimeLimitMs)]),
    })) as CallToolResult;
    const texts = result.content.map((block) => (block.type === 'text' ? block.text : '')).filter(Boolean);
    // A structured result's first text is its JSON mirror: the sentences for a reader first, then the data laid out.
    const text =
      result.structuredContent === undefined
        ? texts.join('\n')
        : [...texts.slice(1), JSON.stringify(result.structuredContent, null, 2)].join('\n');
    if (text === '') return undefined;
    return text.length > previewMaxCharacters ? `${text.slice(0, previewMaxCharacters)}…` : text;
  } catch {
    return undefined;
  }
}

/**
 * Puts one call on the console's waiting list and waits for a human's
 * decision, telling the client every few seconds that the call is still
 * waiting (as progress, which also keeps clients that reset their time
 * limit on progress from giving up).
 */
export async function waitForConsoleApproval(
  broker: ApprovalBroker,
  request: ApprovalRequest,
  context: CallContext,
  options: { keepOnAbort?: boolean } = {},
): Promise<ApprovalVerdict> {
  const { approval, verdict } = await broker.request(request, context.signal, options);
  const totalSeconds = Math.ceil(broker.timeLimitMs / 1000);
  const where =
    broker.consoleUrl === undefined ? 'the Toolshed console' : `the Toolshed console (${broker.consoleUrl})`;
  const tell = () => {
    const waited = Math.round((Date.now() - approval.requestedAt) / 1000);
    context.progress(waited, totalSeconds, `Waiting for a human to approve ${request.tool} in ${where}`);
  };
  tell();
  const ticker = setInterval(tell, progressEveryMs);
  try {
    return await verdict;
  } finally {
    clearInterval(ticker);
  }
}
