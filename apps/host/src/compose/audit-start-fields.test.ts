import { describe, expect, it } from 'vitest';
import { anyArguments } from './any-arguments.ts';
import { callDeadline } from './call-deadline.ts';
import { callId } from './call-id.ts';
import { isoTimestamp } from './iso-timestamp.ts';

describe('isoTimestamp', () => {
  it('writes what toISOString writes, across seconds, minutes, days and years', () => {
    const times = [
      0,
      1,
      999,
      1000,
      Date.UTC(2026, 10, 28, 10, 22, 55, 123),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1, 0, 0, 0, 0),
      Date.UTC(2028, 1, 29, 12, 0, 0, 7),
    ];
    // Every millisecond of three seconds in a row, in order and back again, as calls come.
    const start = Date.UTC(2026, 10, 28, 23, 59, 58, 0);
    for (let time = start; time < start + 3000; time++) times.push(time);
    for (let time = start + 3000; time > start - 10; time -= 7) times.push(time);
    for (const time of times) expect(isoTimestamp(time)).toBe(new Date(time).toISOString());
  });
});

describe('callId', () => {
  it('starts with the time, so ids sort as calls started, and differs for calls in the same millisecond', () => {
    const now = Date.UTC(2026, 10, 28, 10, 22, 55, 123);
    const ids = Array.from({ length: 2000 }, (_, index) => callId(now + Math.floor(index / 100)));
    for (const id of ids) expect(id).toMatch(/^[0-9a-z]{9}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const times = ids.map((id) => id.slice(0, 9));
    expect([...times].sort()).toEqual(times);
    expect(Number.parseInt(times[0] as string, 36)).toBe(now);
  });
});

describe('anyArguments', () => {
  const validate = (value: unknown) => anyArguments['~standard'].validate(value);

  it('takes any object as it is', () => {
    const args = { path: '/tmp/a', nested: { deep: [1, 2] } };
    expect(validate(args)).toEqual({ value: args });
    expect((validate(args) as { value: unknown }).value).toBe(args);
  });

  it.each([null, [], 'text', 3, undefined])('refuses %j', (value) => {
    expect(validate(value)).toEqual({ issues: [{ message: 'Expected an object of named arguments' }] });
  });
});

describe('callDeadline', () => {
  it("follows the caller's cancellation, and its time limit alone is not aborted by it", () => {
    const caller = new AbortController();
    const deadline = callDeadline(caller.signal, 60_000);
    caller.abort(new Error('cancelled'));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toEqual(new Error('cancelled'));
    expect(deadline.timeout.aborted).toBe(false);
    deadline.dispose();
  });

  it('aborts both signals when the time limit passes, whether the time limit was asked for before or after', async () => {
    const early = callDeadline(new AbortController().signal, 1);
    const timeout = early.timeout;
    const late = callDeadline(new AbortController().signal, 1);
    await new Promise((resolve) => early.signal.addEventListener('abort', resolve, { once: true }));
    await new Promise((resolve) => late.signal.addEventListener('abort', resolve, { once: true }));
    for (const signal of [timeout, late.timeout, early.signal, late.signal]) {
      expect(signal.aborted).toBe(true);
      expect((signal.reason as DOMException).name).toBe('TimeoutError');
    }
    early.dispose();
    late.dispose();
  });

  it('lets go of the caller once disposed: a later cancellation reaches nothing', () => {
    const caller = new AbortController();
    const deadline = callDeadline(caller.signal, 60_000);
    deadline.dispose();
    caller.abort();
    expect(deadline.signal.aborted).toBe(false);
  });
});
