import { describe, expect, it } from 'vitest';
import { runInputRounds, UpstreamInputError } from './input-required-rounds.ts';

/** An upstream that answers each attempt from a script, and remembers what each attempt carried. */
function scripted(...answers: unknown[]) {
  const attempts: Record<string, unknown>[] = [];
  return {
    attempts,
    attempt: async (retry: Record<string, unknown>) => {
      attempts.push(retry);
      return answers[attempts.length - 1];
    },
  };
}

const ask = (key: string, method = 'elicitation/create') => ({
  resultType: 'input_required',
  inputRequests: { [key]: { method, params: { message: key } } },
});

describe('runInputRounds', () => {
  it('retries with the answers and the requestState exactly as given, and stops at the complete result', async () => {
    const upstream = scripted({ ...ask('size'), requestState: ' opaque {"a":1} ' }, ask('topping'), {
      resultType: 'complete',
      content: [],
    });
    const result = await runInputRounds(
      'tools/call',
      upstream.attempt,
      async (_method, params) => ({ action: 'accept', content: { answer: params.message } }),
      undefined,
    );
    expect(result).toEqual({ content: [] });
    expect(upstream.attempts).toEqual([
      {},
      { inputResponses: { size: { action: 'accept', content: { answer: 'size' } } }, requestState: ' opaque {"a":1} ' },
      // No requestState came with the second question, so none goes back.
      { inputResponses: { topping: { action: 'accept', content: { answer: 'topping' } } } },
    ]);
  });

  it("takes the era's framing off a complete result: resultType and the upstream's serverInfo", async () => {
    const upstream = scripted({
      resultType: 'complete',
      content: [{ type: 'text', text: 'done' }],
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'upstream', version: '1' }, 'example.com/trace': 'x' },
    });
    expect(await runInputRounds('tools/call', upstream.attempt, undefined, undefined)).toEqual({
      content: [{ type: 'text', text: 'done' }],
      _meta: { 'example.com/trace': 'x' },
    });
  });

  it('takes a result without resultType, from a 2025 server, as complete', async () => {
    const upstream = scripted({ content: [{ type: 'text', text: 'old' }] });
    expect(await runInputRounds('tools/call', upstream.attempt, undefined, undefined)).toEqual({
      content: [{ type: 'text', text: 'old' }],
    });
  });

  it.each([
    [
      'the caller cannot answer',
      ask('name'),
      /the user's answer to a question \(elicitation\/create\), which could not be given: no form here/,
    ],
    ['the question is of a kind the host does not pass on', ask('x', 'tasks/get'), /it asked for tasks\/get/],
    ['input_required comes on a request that cannot have it', ask('name'), /cannot have/],
  ])('refuses without retrying when %s', async (_case, answer, message) => {
    const upstream = scripted(answer);
    const method = message.source.includes('cannot have') ? 'tools/list' : 'tools/call';
    const error = await runInputRounds(
      method,
      upstream.attempt,
      async () => {
        throw new Error('no form here');
      },
      undefined,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamInputError);
    expect((error as Error).message).toMatch(message);
    expect(upstream.attempts).toHaveLength(1);
  });

  it('stops, without retrying, when the caller cancels while being asked', async () => {
    const controller = new AbortController();
    const upstream = scripted(ask('name'));
    const pending = runInputRounds(
      'tools/call',
      upstream.attempt,
      () => {
        controller.abort(new Error('cancelled by the caller'));
        return Promise.reject(controller.signal.reason);
      },
      controller.signal,
    );
    await expect(pending).rejects.toThrow('cancelled by the caller');
    expect(upstream.attempts).toHaveLength(1);
  });

  it('gives up at the time limit without waiting for the person being asked', async () => {
    const upstream = scripted(ask('name'));
    const pending = runInputRounds(
      'tools/call',
      upstream.attempt,
      () => new Promise(() => {}),
      AbortSignal.timeout(50),
    );
    await expect(pending).rejects.toThrow(/timed? ?out/i);
    expect(upstream.attempts).toHaveLength(1);
  });
});
