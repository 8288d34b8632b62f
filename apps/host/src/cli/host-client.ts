import { createInMemoryTransportPair } from '@toolshed/mcp-core';
import type { Host } from '../create-host.ts';
import { hostVersion } from '../host-version.ts';
import { type ServerRequestHandler, UpstreamSession } from '../upstream/upstream-session.ts';

/**
 * A client for the CLI's own calls, connected to the host in memory. When a
 * terminal is attached, approval and other questions are put to the person
 * at it; without one the client says it cannot ask, so calls that need a
 * human's yes are refused.
 */
export async function connectCliClient(
  host: Host,
): Promise<{ session: UpstreamSession; answer: ServerRequestHandler }> {
  const [clientSide, serverSide] = createInMemoryTransportPair();
  await host.server.connect(serverSide);
  const session = new UpstreamSession(clientSide);
  const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
  await session.connect({
    clientInfo: { name: 'toolshed-cli', version: hostVersion },
    capabilities: interactive ? { elicitation: { form: {} } } : {},
    // In the same process: an answer is immediate or never coming.
    probeTimeLimitMs: 1000,
  });
  const answer: ServerRequestHandler = async (method, params) => {
    if (method !== 'elicitation/create') throw new Error(`${method} is not answered by the command line`);
    const schema = params.requestedSchema as { properties?: Record<string, { type?: string }> } | undefined;
    // Loaded here, not imported: node:readline/promises stays off the host's start-up path.
    const { createInterface } = process.getBuiltinModule('node:readline/promises');
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    try {
      process.stderr.write(`\n${String(params.message)}\n`);
      const properties = Object.entries(schema?.properties ?? {});
      if (properties.length === 1 && properties[0]?.[1].type === 'boolean') {
        const reply = (await prompt.question('Allow? [y/N] ')).trim().toLowerCase();
        return reply === 'y' || reply === 'yes'
          ? { action: 'accept', content: { [properties[0][0]]: true } }
          : { action: 'decline' };
      }
      const content: Record<string, unknown> = {};
      for (const [name, property] of properties) {
        const reply = await prompt.question(`${name}: `);
        content[name] =
          property.type === 'number' || property.type === 'integer'
            ? Number(reply)
            : property.type === 'boolean'
              ? /^y/i.test(reply)
              : reply;
      }
      return { action: 'accept', content };
    } finally {
      prompt.close();
    }
  };
  return { session, answer };
}
