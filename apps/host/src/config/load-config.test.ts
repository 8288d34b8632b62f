import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { composedToolName } from '../compose/tool-names.ts';
import { parseHostConfig } from './load-config.ts';

const source = '/etc/toolshed.json';
/** `${env:NAME}`, as a config file writes it. */
const ref = (name: string) => `\${env:${name}}`;
/** Any `${...}` variable, as a config file writes it. */
const variable = (name: string) => `\${${name}}`;
const parse = (document: unknown, env: NodeJS.ProcessEnv = {}) =>
  parseHostConfig(JSON.stringify(document), source, env);

describe('parseHostConfig', () => {
  it('reads the Claude Desktop / Cursor shape unchanged', () => {
    const config = parse({
      mcpServers: {
        github: { command: 'npx', args: ['-y', '@example/github-mcp'], env: { TOKEN: 'x' } },
        remote: { url: 'https://mcp.example.com/mcp', headers: { authorization: 'Bearer t' } },
      },
    });
    expect(config.servers).toEqual([
      expect.objectContaining({
        name: 'github',
        kind: 'stdio',
        command: 'npx',
        args: ['-y', '@example/github-mcp'],
        env: { TOKEN: 'x' },
      }),
      expect.objectContaining({
        name: 'remote',
        kind: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { authorization: 'Bearer t' },
      }),
    ]);
    expect(config.options).toEqual({
      separator: '_',
      audit: { enabled: true, maxBytes: 10_485_760, files: 5 },
      maxRestarts: 5,
      toolList: 'full',
      approval: { mode: 'elicit-or-console', consoleTimeLimitMs: 300_000 },
    });
  });

  it('reads the VS Code shape, with type', () => {
    const config = parse({
      inputs: [],
      servers: {
        local: { type: 'stdio', command: 'node', args: ['server.js'], cwd: 'servers' },
        remote: { type: 'http', url: 'http://127.0.0.1:3000/mcp' },
      },
    });
    expect(config.servers.map((server) => [server.name, server.kind])).toEqual([
      ['local', 'stdio'],
      ['remote', 'http'],
    ]);
    expect(config.servers[0]).toMatchObject({ cwd: '/etc/servers' });
  });

  it('mounts our servers by package, keyed by the package or named', () => {
    const config = parse({
      mcpServers: {
        '@toolshed/server-sql': {
          databases: { shop: 'shop.db' },
          maxRows: 50,
          prefix: 'db',
          tools: { deny: ['explain_*'] },
        },
        pictures: { package: '@toolshed/server-image', options: { directories: ['/srv/pictures'] } },
      },
    });
    expect(config.servers).toEqual([
      expect.objectContaining({
        name: 'sql',
        kind: 'package',
        package: '@toolshed/server-sql',
        options: { databases: { shop: 'shop.db' }, maxRows: 50 },
        prefix: 'db',
        tools: { deny: ['explain_*'] },
      }),
      expect.objectContaining({ name: 'pictures', kind: 'package', package: '@toolshed/server-image' }),
    ]);
  });

  it('substitutes env references everywhere, and takes host settings', () => {
    const config = parse(
      {
        toolshed: { separator: '-', audit: { path: `${ref('HOME')}/audit.jsonl`, maxBytes: 4096 }, maxRestarts: 2 },
        mcpServers: {
          api: {
            url: `https://${ref('API_HOST')}/mcp`,
            headers: { authorization: `Bearer ${ref('API_TOKEN')}` },
            toolTimeoutMs: 5000,
            rateLimit: { perMinute: 10 },
            approval: { require: ['*'], skip: ['get_*'] },
          },
        },
      },
      { HOME: '/home/me', API_HOST: 'api.example.com', API_TOKEN: 's3cret' },
    );
    expect(config.options).toEqual({
      separator: '-',
      audit: { enabled: true, path: '/home/me/audit.jsonl', maxBytes: 4096, files: 5 },
      maxRestarts: 2,
      toolList: 'full',
      approval: { mode: 'elicit-or-console', consoleTimeLimitMs: 300_000 },
    });
    expect(config.servers[0]).toMatchObject({
      url: 'https://api.example.com/mcp',
      headers: { authorization: 'Bearer s3cret' },
      toolTimeoutMs: 5000,
      rateLimit: { perMinute: 10 },
      approval: { require: ['*'], skip: ['get_*'] },
    });
  });

  it('reads VS Code mcp.json with comments and trailing commas, resolving its variables as VS Code does', () => {
    const text = `{
      // Servers for this workspace
      "inputs": [{ "type": "promptString", "id": "unused", "description": "\${input:unused}" }],
      "servers": {
        "local": {
          "type": "stdio",
          "command": "node",
          /* relative to the workspace, not to .vscode */
          "args": ["\${workspaceFolder}/server.js", "\${workspaceFolderBasename}", "\${userHome}\${/}x",],
          "env": { "TOKEN": "\${env:TOKEN}", "LITERAL": "\${unknownVariable}", },
          "cwd": "tools",
        },
      },
    }`;
    const config = parseHostConfig(text, '/home/me/project/.vscode/mcp.json', { TOKEN: 't0ken' });
    expect(config.servers[0]).toMatchObject({
      args: ['/home/me/project/server.js', 'project', `${homedir()}/x`],
      env: { TOKEN: 't0ken', LITERAL: variable('unknownVariable') },
      cwd: '/home/me/project/tools',
    });
    const elsewhere = parseHostConfig(
      `{"mcpServers": {"a": {"command": "${variable('workspaceFolder')}/bin/a"}}}`,
      '/etc/toolshed/toolshed.json',
      {},
    );
    expect(elsewhere.servers[0]).toMatchObject({ command: '/etc/toolshed/bin/a' });
    expect(parseHostConfig('\uFEFF{"servers": {"a": {"command": "x"}}}', source, {}).servers).toHaveLength(1);
  });

  it('refuses a config nested deeper than any needs, before parsing it, with one line', () => {
    const levels = 5_000_000;
    const text = `{"mcpServers": {"a": {"command": "x", "args": ${'['.repeat(levels)}${']'.repeat(levels)}}}}`;
    expect(() => parseHostConfig(text, source, {})).toThrow(
      /^\/etc\/toolshed\.json: nested deeper than 64 levels at line 1 column 108; no config needs that$/,
    );
    // Brackets inside strings and comments are not nesting.
    const quoted = `{"mcpServers": {"a": {"command": "${'['.repeat(100)}"}}} // ${'{'.repeat(100)}`;
    expect(parseHostConfig(quoted, source, {}).servers).toHaveLength(1);
  });

  it('leaves disabled servers out', () => {
    expect(
      parse({ mcpServers: { a: { command: 'a', disabled: true }, b: { command: 'b' } } }).servers.map(
        (server) => server.name,
      ),
    ).toEqual(['b']);
  });

  it.each([
    ['not JSON', '{"mcpServers": {', /\/etc\/toolshed\.json: not valid JSON/],
    ['no servers table', { tools: {} }, /expected "mcpServers" \(Claude Desktop, Cursor\) or "servers" \(VS Code\)/],
    ['both tables', { mcpServers: {}, servers: {} }, /give "mcpServers" or "servers", not both/],
    ['a table that is a list', { mcpServers: [] }, /at mcpServers: expected an object of servers by name/],
    [
      'an entry that is a string',
      { mcpServers: { a: 'npx thing' } },
      /at mcpServers\.a: expected an object describing the server/,
    ],
    [
      'neither command nor url',
      { mcpServers: { a: { args: [] } } },
      /at mcpServers\.a: expected "command" \(a stdio server\), "url" \(Streamable HTTP\) or "package"/,
    ],
    [
      'both command and url',
      { mcpServers: { a: { command: 'x', url: 'http://x' } } },
      /at mcpServers\.a: give either command \(stdio\) or url \(HTTP\), not both/,
    ],
    [
      'args not a list',
      { mcpServers: { a: { command: 'x', args: '--flag' } } },
      /at mcpServers\.a\.args: Invalid input: expected array, received string/,
    ],
    [
      'an env value not a string',
      { mcpServers: { a: { command: 'x', env: { PORT: 3000 } } } },
      /at mcpServers\.a\.env\.PORT: Invalid input: expected string, received number/,
    ],
    ['an unknown key', { mcpServers: { a: { command: 'x', comand: 'y' } } }, /at mcpServers\.a: unknown key "comand"/],
    ['a URL that is not http', { servers: { a: { type: 'http', url: 'ftp://example.com' } } }, /at servers\.a\.url: /],
    [
      'the legacy SSE transport',
      { servers: { a: { type: 'sse', url: 'http://x/sse' } } },
      /at servers\.a\.type: the legacy SSE transport is not supported/,
    ],
    [
      'an unknown package',
      { mcpServers: { a: { package: '@toolshed/server-ftp' } } },
      /at mcpServers\.a\.package: Invalid option/,
    ],
    [
      'a bad server name',
      { mcpServers: { 'my server': { command: 'x' } } },
      /at mcpServers\.my server: server names may use letters, digits/,
    ],
    [
      'a duplicate name',
      { mcpServers: { '@toolshed/server-sql': { databases: 'a.db' }, sql: { command: 'x' } } },
      /at mcpServers\.sql: a second server named "sql"/,
    ],
    [
      'a bad prefix',
      { mcpServers: { a: { command: 'x', prefix: 'has space' } } },
      /at mcpServers\.a\.prefix: a prefix of letters/,
    ],
    [
      'a negative timeout',
      { mcpServers: { a: { command: 'x', toolTimeoutMs: -1 } } },
      /at mcpServers\.a\.toolTimeoutMs: Too small/,
    ],
    [
      'an unknown host option',
      { toolshed: { seperator: '_' }, mcpServers: {} },
      /at toolshed: unknown key "seperator"/,
    ],
    [
      'a tool list that is neither full nor search',
      { toolshed: { toolList: 'searchable' }, mcpServers: {} },
      /at toolshed\.toolList: Invalid option: expected one of "full"\|"search"/,
    ],
    [
      'a bad separator',
      { toolshed: { separator: '::' }, mcpServers: {} },
      /at toolshed\.separator: one to three of letters/,
    ],
    [
      'an input VS Code would ask for',
      { servers: { a: { command: 'x', args: ['--key', variable('input:api-key')] } } },
      /at servers\.a\.args\[1\]: \$\{input:api-key\} asks the user for "api-key", which only VS Code can do/,
    ],
    [
      'an unset variable',
      { mcpServers: { a: { command: 'x', env: { TOKEN: ref('MISSING_TOKEN') } } } },
      /at mcpServers\.a\.env\.TOKEN: \$\{env:MISSING_TOKEN\} is used but MISSING_TOKEN is not set/,
    ],
  ])('refuses %s, naming where', (_name, document, message) => {
    const text = typeof document === 'string' ? document : JSON.stringify(document);
    expect(() => parseHostConfig(text, source, {})).toThrow(message);
  });
});

describe('composedToolName', () => {
  it('joins prefix, separator and name', () => {
    expect(composedToolName('github', '_', 'create_issue')).toBe('github_create_issue');
    expect(composedToolName('', '_', 'query')).toBe('query');
  });

  it('cleans and shortens deterministically, with a digest that keeps names apart', () => {
    const long = composedToolName('a-very-long-server-name', '_', 'x'.repeat(60));
    expect(long).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(composedToolName('a-very-long-server-name', '_', 'x'.repeat(60))).toBe(long);
    expect(composedToolName('a-very-long-server-name', '_', `${'x'.repeat(59)}y`)).not.toBe(long);
    const dotted = composedToolName('fs', '_', 'read.file');
    expect(dotted).toMatch(/^fs_read_file-[0-9a-f]{8}$/);
    expect(composedToolName('fs', '_', 'read_file')).toBe('fs_read_file');
  });
});
