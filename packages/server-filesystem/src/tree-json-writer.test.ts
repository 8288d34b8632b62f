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

it('writes the same across the points where it flattens its text, every few hundred entries', () => {
  const writer = new TreeJsonWriter();
  const tree: { name: string; type: string; children?: unknown[] }[] = [];
  for (let directory = 0; directory < 40; directory++) {
    const children = Array.from({ length: 150 }, (_, file) => ({ name: `file-${file}.ts`, type: 'file' }));
    writer.enterDirectory(`dir-${directory}`);
    for (const child of children) writer.file(child.name);
    writer.leaveDirectory();
    tree.push({ name: `dir-${directory}`, type: 'directory', children });
  }
  expect(writer.toString()).toBe(JSON.stringify(tree, null, 2));
});
