import { expect, it } from 'vitest';
import { TreeJsonWriter } from './tree-json-writer.ts';

it('writes exactly what JSON.stringify(tree, null, 2) writes', () => {
  const writer = new TreeJsonWriter();
  writer.file('a "quoted" name\n');
  writer.enterDirectory('empty');
  writer.leaveDirectory();
  writer.enterDirectory('full');
  writer.file('x');
  writer.enterDirectory('deeper');
  writer.file('ü.txt');
  writer.file('back\\slash\ttab \ud800 lone');
  writer.leaveDirectory();
  writer.leaveDirectory();
  const tree = [
    { name: 'a "quoted" name\n', type: 'file' },
    { name: 'empty', type: 'directory', children: [] },
    {
      name: 'full',
      type: 'directory',
      children: [
        { name: 'x', type: 'file' },
        {
          name: 'deeper',
          type: 'directory',
          children: [
            { name: 'ü.txt', type: 'file' },
            { name: 'back\\slash\ttab \ud800 lone', type: 'file' },
          ],
        },
      ],
    },
  ];
  expect(writer.toString()).toBe(JSON.stringify(tree, null, 2));
  expect(new TreeJsonWriter().toString()).toBe(JSON.stringify([], null, 2));
});
