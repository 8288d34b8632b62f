import type { Era } from './protocol-eras.ts';

/**
 * Throws unless a JSON-RPC message is a successful answer of the era asked:
 * a bench that times error responses (or 2025-shaped answers to 2026
 * requests) measures the wrong thing, so any such answer stops the run.
 */
export function checkAnswer(message: unknown, era: Era, what: string): Record<string, unknown> {
  const answer = message as { error?: unknown; result?: Record<string, unknown> } | undefined;
  if (answer === undefined || answer.error !== undefined || typeof answer.result !== 'object') {
    throw new Error(`${what}: not a successful answer: ${JSON.stringify(message).slice(0, 300)}`);
  }
  const result = answer.result;
  if (era === 'modern' && result.resultType !== 'complete') {
    throw new Error(
      `${what}: a 2026-era answer without resultType "complete": ${JSON.stringify(result).slice(0, 300)}`,
    );
  }
  return result;
}

/** Throws unless a tools/call answer is the echo of `text`, not a tool error. */
export function checkEchoAnswer(message: unknown, era: Era, text: string, what: string): void {
  const result = checkAnswer(message, era, what);
  const content = result.content as { type?: string; text?: string }[] | undefined;
  if (result.isError === true || content?.[0]?.text !== text) {
    throw new Error(`${what}: not the echo asked for: ${JSON.stringify(result).slice(0, 300)}`);
  }
}
