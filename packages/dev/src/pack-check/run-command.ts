import { execFileSync } from 'node:child_process';

/** Runs a command to its end and returns its stdout; a failure throws with stdout and stderr attached. */
export function runCommand(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: env ?? process.env,
  });
}
