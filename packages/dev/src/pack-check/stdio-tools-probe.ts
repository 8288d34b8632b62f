import { spawn } from 'node:child_process';

export interface StdioToolsProbe {
  node: string;
  binPath: string;
  /** Named in errors. */
  name: string;
  args: readonly string[];
  /** The version the bin was packed with; its serverInfo must say it. */
  version: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Initialize, then tools/list, over stdio: the server must name the version
 * it was packed with and list tools.
 */
export function listToolsOverStdio(probe: StdioToolsProbe): Promise<void> {
  const { node, binPath, name, args, version, env = process.env } = probe;
  return new Promise((resolve, reject) => {
    const child = spawn(node, [binPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name}: no tools/list answer in 20 s; got ${stdout}`));
    }, 20_000);
    const send = (message: Record<string, unknown>) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const lines = stdout.split('\n').filter(Boolean);
      if (lines.length === 1 && stdout.endsWith('\n')) {
        const initialized = JSON.parse(lines[0] as string);
        if (initialized.result?.serverInfo?.version !== version) {
          clearTimeout(timer);
          child.kill('SIGKILL');
          reject(
            new Error(`${name}: serverInfo says ${JSON.stringify(initialized.result?.serverInfo)}, not ${version}`),
          );
          return;
        }
        send({ method: 'notifications/initialized' });
        send({ id: 2, method: 'tools/list' });
      }
      if (lines.length < 2 || !stdout.endsWith('\n')) return;
      clearTimeout(timer);
      child.stdin.end();
      const tools = JSON.parse(lines[1] as string).result?.tools;
      if (Array.isArray(tools) && tools.length > 0) resolve();
      else reject(new Error(`${name}: unexpected tools/list answer ${lines[1]}`));
    });
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pack-check', version: '0' } },
    });
  });
}
