import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Whether this system has the process table `processesInGroups` reads (Linux's /proc). */
export function processTableAvailable(procDirectory = '/proc'): boolean {
  return existsSync(`${procDirectory}/self/stat`);
}

/**
 * The processes still alive in the given process groups, read from /proc
 * (Linux): what a host must leave behind after it exits is none. Zombies
 * awaiting their parent's wait() are not counted; they hold no resources.
 */
export function processesInGroups(
  groups: readonly number[],
  procDirectory = '/proc',
): { pid: number; command: string }[] {
  const wanted = new Set(groups);
  const found: { pid: number; command: string }[] = [];
  let entries: string[];
  try {
    entries = readdirSync(procDirectory);
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`${procDirectory}/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so split after the last ')'.
    const close = stat.lastIndexOf(')');
    const [state = '', , pgrp = ''] = stat.slice(close + 2).split(' ');
    if (state === 'Z' || !wanted.has(Number(pgrp))) continue;
    found.push({ pid: Number(entry), command: stat.slice(stat.indexOf('(') + 1, close) });
  }
  return found;
}
