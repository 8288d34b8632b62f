import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();

/**
 * Kills the servers a bench started when the bench exits for any reason, so a
 * failed check (which exits non-zero at once) leaves no server behind.
 */
export function killOnExit<Child extends ChildProcess>(child: Child): Child {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
