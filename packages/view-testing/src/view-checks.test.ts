import { expect, it } from 'vitest';
import { viewByteBudget, viewHtmlProblems } from './view-checks.ts';

it('passes a small view with inline script and style', () => {
  expect(viewHtmlProblems('<!doctype html><style>p{}</style><p id="x">hi</p><script>1</script>')).toEqual([]);
});

it('names each way a view stops being small and self-contained', () => {
  expect(viewHtmlProblems('<img src="https://tracker.example/p.gif">')).toEqual([
    'names another origin: src="https://',
  ]);
  expect(viewHtmlProblems("<a href='//cdn.example/x'>x</a>")).toEqual(["names another origin: href='//"]);
  expect(viewHtmlProblems('<link rel="stylesheet" href="a.css">')).toEqual(['loads another document: <link']);
  expect(viewHtmlProblems('x'.repeat(viewByteBudget + 1))).toEqual([
    `${viewByteBudget + 1} bytes, over the budget of ${viewByteBudget}`,
  ]);
});
