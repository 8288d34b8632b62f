import { describe, expect, it } from 'vitest';
import { assignToolNames } from './assign-tool-names.ts';

const names = (claims: { owner: string; name: string }[], separator = '_') =>
  assignToolNames(claims, separator).map((claim) => [claim.owner, claim.exposedName, claim.collidesWith?.owner]);

describe('assignToolNames', () => {
  it('keeps the first claim of a name and numbers the later ones, skipping names others own', () => {
    expect(
      names([
        { owner: 'a', name: 'a_b_c' },
        { owner: 'a_b', name: 'a_b_c' },
        { owner: 'x', name: 'a_b_c' },
        { owner: 'y', name: 'a_b_c_3' },
      ]),
    ).toEqual([
      ['a', 'a_b_c', undefined],
      ['a_b', 'a_b_c_2', 'a'],
      ['x', 'a_b_c_4', 'a'],
      ['y', 'a_b_c_3', undefined],
    ]);
  });

  it('numbers with the configured separator and stays within 64 characters', () => {
    const long = 'n'.repeat(64);
    expect(
      names(
        [
          { owner: 'a', name: long },
          { owner: 'b', name: long },
        ],
        '-',
      ),
    ).toEqual([
      ['a', long, undefined],
      ['b', `${'n'.repeat(62)}-2`, 'a'],
    ]);
  });
});
