import type { Page } from 'playwright-core';

/** The little of the DOM that `postFromPage` uses, typed here since the tests compile without the DOM library. */
interface PageDocument {
  createElement(tag: string): { method: string; action: string; type: string; name: string; value: string } & {
    append(child: unknown): void;
    submit(): void;
  };
  body: { append(child: unknown): void };
}

/** Posts a form from inside the page, as the page's own script would: same origin, the session's cookie. */
export function postFromPage(page: Page, action: string, fields: Record<string, string>): Promise<void> {
  return page.evaluate(
    ({ action, fields }) => {
      const document = (globalThis as unknown as { document: PageDocument }).document;
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      for (const [name, value] of Object.entries(fields)) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    { action, fields },
  );
}
