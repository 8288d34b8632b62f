import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the host keeps its state (audit log, sample data): `$XDG_STATE_HOME/toolshed`, else `~/.local/state/toolshed`. */
export function stateDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_STATE_HOME !== undefined && env.XDG_STATE_HOME !== ''
      ? env.XDG_STATE_HOME
      : join(homedir(), '.local', 'state');
  return join(base, 'toolshed');
}
