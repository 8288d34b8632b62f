import { describe, expect, it } from 'vitest';
import { html } from './html.ts';
import { type FormSchema, schemaField } from './schema-form.ts';
import { editArray, readSchemaValue } from './schema-form-values.ts';

const schema: FormSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    count: { type: 'integer' },
    dryRun: { type: 'boolean' },
    mode: { type: 'string', enum: ['fast', 'careful'] },
    edits: {
      type: 'array',
      items: {
        type: 'object',
        properties: { oldText: { type: 'string' }, newText: { type: 'string' } },
        required: ['oldText', 'newText'],
      },
    },
    tags: { type: 'array', items: { type: 'string' } },
    anything: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    'a/b~c': { type: 'string' },
  },
  required: ['name', 'edits'],
};

function formOf(entries: [string, string][]): URLSearchParams {
  return new URLSearchParams(entries);
}

describe('schema forms', () => {
  it('reads a nested form back into arguments, typed by the schema', () => {
    const form = formOf([
      ['/name', 'report'],
      ['/count', '3'],
      ['/dryRun', 'false'],
      ['/dryRun', 'true'],
      ['/mode', 'careful'],
      ['/edits#count', '2'],
      ['/edits/0/oldText', 'a'],
      ['/edits/0/newText', 'b'],
      ['/edits/1/oldText', 'c'],
      ['/edits/1/newText', ''],
      ['/tags#count', '0'],
      ['/anything#json', '42'],
      ['/a~1b~0c', 'escaped'],
    ]);
    expect(readSchemaValue(schema, form, '', true)).toEqual({
      name: 'report',
      count: 3,
      dryRun: true,
      mode: 'careful',
      edits: [
        { oldText: 'a', newText: 'b' },
        { oldText: 'c', newText: '' },
      ],
      anything: 42,
      'a/b~c': 'escaped',
    });
  });

  it('leaves out empty optional fields and keeps text that is not JSON for the tool to name', () => {
    const form = formOf([
      ['/name', ''],
      ['/count', ''],
      ['/edits#count', '0'],
      ['/anything#json', '{not json'],
    ]);
    expect(readSchemaValue(schema, form, '', true)).toEqual({ name: '', edits: [], anything: '{not json' });
  });

  it('adds and removes array items, and refuses prototype keys', () => {
    const added = editArray({ edits: [{ oldText: 'a' }] }, schema, { add: '/edits' });
    expect(added).toEqual({ edits: [{ oldText: 'a' }, {}] });
    expect(editArray(added, schema, { remove: '/edits/0' })).toEqual({ edits: [{}] });
    expect(editArray({}, schema, { add: '/tags' })).toEqual({ tags: [undefined] });
    expect(editArray({}, schema, { add: '/__proto__/polluted' })).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('labels every control and escapes what the schema says', () => {
    const markup = schemaField(
      'args',
      {
        ...schema,
        properties: { ...schema.properties, evil: { type: 'string', description: '<img src=x onerror=alert(1)>' } },
      },
      '',
      { name: '"><script>alert(1)</script>', edits: [{ oldText: 'x' }] },
      true,
    ).text;
    expect(markup).not.toContain('<script>');
    expect(markup).not.toContain('<img src=x');
    const ids = [...markup.matchAll(/<(?:input|select|textarea)[^>]* id="([^"]+)"/g)].map((match) => match[1]);
    for (const id of ids) expect(markup).toContain(`for="${id}"`);
    expect(markup).toContain('Add an item to edits');
    expect(markup).toContain('Remove edits 1');
  });

  it('html escapes everything but its own results', () => {
    expect(html`<p>${'<b>&"\''}</p>${html`<i>ok</i>`}${['<', html`<br>`]}`.text).toBe(
      '<p>&lt;b&gt;&amp;&quot;&#39;</p><i>ok</i>&lt;<br>',
    );
  });
});
