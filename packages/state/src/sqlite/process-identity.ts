const { readFileSync } = process.getBuiltinModule('node:fs');

/**
 * When a process started, from /proc (in clock ticks since boot): with the
 * pid it names one process, where a pid alone may have been reused.
 * Undefined where /proc is not there.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the process that was `pid`, started at `start`, is still running on this machine. */
export function processRuns(pid: number, start: string | null): boolean {
  if (start !== null) return processStart(pid) === start;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
