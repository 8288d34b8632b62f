import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assignToolNames } from './assign-tool-names.ts';

type Claim = { owner: string; name: string; identity: string };

const digestOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);
const claim = (owner: string, tool: string, name: string): Claim => ({ owner, name, identity: `${owner}/${tool}` });
const names = (claims: Claim[]) =>
  assignToolNames(claims).map((assigned) => [
    assigned.identity,
    assigned.exposedName,
    assigned.sharedWith.map((other) => other.owner),
  ]);
/** Which (server/tool) each exposed name calls. */
const binding = (claims: Claim[]) =>
  Object.fromEntries(assignToolNames(claims).map((assigned) => [assigned.exposedName, assigned.identity]));

describe('assignToolNames', () => {
  it('keeps every name only one tool wants', () => {
    expect(names([claim('a', 'x', 'a_x'), claim('b', 'x', 'b_x')])).toEqual([
      ['a/x', 'a_x', []],
      ['b/x', 'b_x', []],
    ]);
  });

  it('gives a name two tools want to neither, each taking a digest of its own server and tool', () => {
    expect(
      names([
        claim('a', 'b_c', 'a_b_c'),
        claim('a_b', 'c', 'a_b_c'),
        claim('x', 'c', 'a_b_c'),
        claim('a_b', 'c_2', 'a_b_c_2'),
      ]),
    ).toEqual([
      ['a/b_c', `a_b_c-${digestOf('a/b_c')}`, ['a_b', 'x']],
      ['a_b/c', `a_b_c-${digestOf('a_b/c')}`, ['a', 'x']],
      ['x/c', `a_b_c-${digestOf('x/c')}`, ['a', 'a_b']],
      ['a_b/c_2', 'a_b_c_2', []],
    ]);
  });

  it('binds every name to the same server and tool whatever the config order', () => {
    const claims = [
      claim('a', 'b_c', 'a_b_c'),
      claim('a_b', 'c', 'a_b_c'),
      claim('a_b', 'c_2', 'a_b_c_2'),
      claim('search', 'find', 'find'),
      claim('web', 'find', 'find'),
      claim('web', 'fetch', 'fetch'),
    ];
    const expected = binding(claims);
    expect(expected).toEqual({
      [`a_b_c-${digestOf('a/b_c')}`]: 'a/b_c',
      [`a_b_c-${digestOf('a_b/c')}`]: 'a_b/c',
      a_b_c_2: 'a_b/c_2',
      [`find-${digestOf('search/find')}`]: 'search/find',
      [`find-${digestOf('web/find')}`]: 'web/find',
      fetch: 'web/fetch',
    });
    // Servers in the opposite order, and each server's tools in the opposite order.
    expect(binding([...claims].reverse())).toEqual(expected);
    // Servers in another order, each keeping its own tool order.
    const byServer = (order: string[]) => order.flatMap((owner) => claims.filter((each) => each.owner === owner));
    expect(binding(byServer(['web', 'a_b', 'search', 'a']))).toEqual(expected);
  });

  it('never gives out a name a tool wants as its own, and keeps a tool listed twice apart from itself', () => {
    const taken = `a_b_c-${digestOf('a_b/c')}`;
    const assigned = binding([claim('a', 'b_c', 'a_b_c'), claim('a_b', 'c', 'a_b_c'), claim('z', 'q', taken)]);
    expect(assigned[taken]).toBe('z/q');
    expect(assigned[`a_b_c-${digestOf('a_b/c#1')}`]).toBe('a_b/c');
    const twice = assignToolNames([claim('a', 'x', 'a_x'), claim('a', 'x', 'a_x')]).map((each) => each.exposedName);
    expect(new Set(twice).size).toBe(2);
  });

  it('stays within 64 characters', () => {
    const long = 'n'.repeat(64);
    expect(names([claim('a', 'n', long), claim('b', 'n', long)])).toEqual([
      ['a/n', `${'n'.repeat(55)}-${digestOf('a/n')}`, ['b']],
      ['b/n', `${'n'.repeat(55)}-${digestOf('b/n')}`, ['a']],
    ]);
  });
});
