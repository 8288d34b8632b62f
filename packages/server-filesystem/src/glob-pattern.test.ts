import { Minimatch, minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { compileExclusion, compileGlob } from './glob-pattern.ts';

const patterns = [
  '*.ts',
  '**/*.ts',
  'src/**',
  '**',
  '*',
  '?.md',
  '[abc]*',
  '[!a]*',
  '{a,b}/*.js',
  '!*.ts',
  '#comment',
  '+(a|b).txt',
  '@(x|y)',
  '*.[[:digit:]]',
  '**/node_modules/**',
  'a/**/b',
  '.*',
  '**/.git',
  'a\\*b',
  '[[:alpha:]]*',
  '*(foo)',
  '?(x).js',
  '',
  'a//b',
  './a',
  'a/b/',
  '**/*.{js,ts}',
  'x/**/*',
  '[]]',
  '[a-',
  '{a,{b,c}}',
  'A*',
  '{1..3}.log',
];
const paths = [
  'a.ts',
  'src/a.ts',
  'src/b/c.ts',
  '.env',
  'a',
  'b',
  'x.md',
  'ab.md',
  'a/x.js',
  'b/y.js',
  'c/z.js',
  'a.txt',
  'b.txt',
  'ab.txt',
  'x',
  'y',
  'f.1',
  'f.a',
  'node_modules/x/y',
  'a/b',
  'a/x/y/b',
  '.git',
  'd/.git',
  'a*b',
  'axb',
  'foo',
  'x.js',
  '.js',
  'a/b/c',
  './a',
  'A1',
  'x/y',
  ']',
  'a-',
  '2.log',
  '4.log',
];

describe('glob patterns', () => {
  // The reference server matches with minimatch(path, pattern, { dot: true }): every pattern means the same here.
  it.each(patterns)('%j matches exactly the paths the reference server matches', (pattern) => {
    const matches = compileGlob(pattern);
    expect(paths.filter((path) => matches(path))).toEqual(
      paths.filter((path) => minimatch(path, pattern, { dot: true })),
    );
  });

  it('agrees with minimatch on 1,000 generated patterns over generated paths', () => {
    // A fixed-seed generator: the same patterns on every run.
    let seed = 42;
    const next = (count: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % count;
    };
    const pick = <Item>(items: readonly Item[]): Item => items[next(items.length)] as Item;
    const atoms = [
      '*',
      '**',
      '?',
      'a',
      'b',
      '.',
      '[ab]',
      '[!a]',
      '{a,b}',
      '{x,y/z}',
      '+(a|b)',
      '@(a|.b)',
      '!(a)',
      '*(a)',
    ];
    const moreAtoms = ['?(b)', '[[:alpha:]]', '\\*', '.a', 'a*', '*b', '.*', '-', '#', '!', '..', '', '{1..3}'];
    const allAtoms = [...atoms, ...moreAtoms];
    const names = ['a', 'b', 'ab', '.a', '.b', 'x', 'z', 'aa', 'a.b', '*', '-', 'y', '..a', 'a.', '2'];
    const walkPaths = Array.from({ length: 200 }, () =>
      Array.from({ length: 1 + next(4) }, () => pick(names)).join('/'),
    );
    const disagreements: string[] = [];
    for (let count = 0; count < 1000; count++) {
      const pattern = Array.from({ length: 1 + next(3) }, () =>
        Array.from({ length: 1 + next(2) }, () => pick(allAtoms)).join(''),
      ).join('/');
      let expected: (path: string) => boolean;
      try {
        // What minimatch(path, pattern, options) does, with the pattern parsed once.
        const glob = new Minimatch(pattern, { dot: true });
        expected = (path) => glob.match(path);
      } catch {
        expected = () => false;
      }
      const matches = compileGlob(pattern);
      for (const path of walkPaths) {
        if (matches(path) !== expected(path)) disagreements.push(`${pattern} ${path}`);
      }
    }
    expect(disagreements.slice(0, 10)).toEqual([]);
  });

  it('excludes a plain name at any depth, with everything below it, as the reference directory_tree does', () => {
    const excluded = compileExclusion(['node_modules', '*.log']);
    expect(
      ['node_modules', 'a/node_modules', 'a/node_modules/b/c', 'x.log', 'a/x.log', 'src/a.ts'].filter(excluded),
    ).toEqual(['node_modules', 'a/node_modules', 'a/node_modules/b/c', 'x.log']);
  });
});
