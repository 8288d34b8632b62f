/**
 * The bench's anchor: the same first page of rows rendered by a view built
 * on the official view SDK (`App` from `@modelcontextprotocol/ext-apps`),
 * bundled into one document as its examples are.
 */
/// <reference lib="dom" />
import { App } from '@modelcontextprotocol/ext-apps';

const app = new App({ name: 'official-sdk-table', version: '1.0.0' });
app.ontoolresult = (result) => {
  performance.mark('result-received');
  const data = result.structuredContent as { columns: { name: string }[]; rows: unknown[][] };
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const column of data.columns) head.appendChild(document.createElement('th')).textContent = column.name;
  const body = table.createTBody();
  for (const row of data.rows.slice(0, 50)) {
    const line = body.insertRow();
    for (const value of row) line.insertCell().textContent = String(value);
  }
  document.body.append(table);
  requestAnimationFrame(() => {
    performance.mark('rows-rendered');
    setTimeout(() => performance.mark('rows-painted'));
  });
};
void app.connect();
