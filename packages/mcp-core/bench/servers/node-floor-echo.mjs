// The floor: Node answering the echo bench from constant strings, with no
// library at all. It parses each line (a server must read the id and the
// text), then answers initialize, tools/list, server/discover and the echo
// call from templates built once, one write per answer, as a server that
// answers each request when it is done would. Whatever mcp-core costs above
// this is the engine's own.
const serverInfo = '{"name":"node-floor","version":"1.0.0"}';
const echoTool =
  '{"name":"echo","description":"Returns the text unchanged.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}}';
const modern = '2026-07-28';
const modernTail = `,"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":${serverInfo}}`;

const answers = {
  initialize: `{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":false}},"serverInfo":${serverInfo}}`,
  'tools/list': `{"tools":[${echoTool}]}`,
  'server/discover': `{"supportedVersions":["${modern}","2025-11-25"],"capabilities":{"tools":{"listChanged":false}}${modernTail}}`,
  modernToolsList: `{"tools":[${echoTool}],"ttlMs":0,"cacheScope":"public"${modernTail}}`,
};

function isModern(params) {
  return params?._meta?.['io.modelcontextprotocol/protocolVersion'] === modern;
}

function result(message) {
  const { method, params } = message;
  if (method === 'tools/call') {
    const text = JSON.stringify(params.arguments.text);
    return `{"content":[{"type":"text","text":${text}}]${isModern(params) ? modernTail : ''}}`;
  }
  if (method === 'tools/list' && isModern(params)) return answers.modernToolsList;
  return answers[method] ?? '{}';
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let newline = pending.indexOf('\n');
  while (newline !== -1) {
    const message = JSON.parse(pending.slice(0, newline));
    pending = pending.slice(newline + 1);
    if (message.id !== undefined) {
      process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result(message)}}\n`);
    }
    newline = pending.indexOf('\n');
  }
});
