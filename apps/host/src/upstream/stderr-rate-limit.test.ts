import { describe, expect, it } from 'vitest';
import { limitStderrRate } from './stderr-rate-limit.ts';

describe('limitStderrRate', () => {
  it('lets a burst through, then a few a second, and says how many it held back', () => {
    let time = 0;
    const written: string[] = [];
    const limit = limitStderrRate((line) => written.push(line), { burst: 3, perSecond: 2, now: () => time });
    for (let index = 0; index < 10; index++) limit.line(`line ${index}`);
    expect(written).toEqual(['line 0', 'line 1', 'line 2']);
    time = 1000;
    limit.line('after a second');
    expect(written.slice(3)).toEqual(['(7 more lines of stderr not shown: over 2 a second)', 'after a second']);
    limit.line('held');
    limit.line('held too');
    limit.flush();
    expect(written.slice(5)).toEqual(['held', '(1 more line of stderr not shown: over 2 a second)']);
  });
});
