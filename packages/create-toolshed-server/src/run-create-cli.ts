/** The `create-toolshed-server` command: arguments → options (asked for on a terminal) → checked → written. */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { type Asker, completeCreateOptions, terminalAsker } from './complete-create-options.ts';
import { createOptionsProblems } from './create-options.ts';
import { createUsage, parseCreateArguments } from './parse-create-arguments.ts';
import { writeProject } from './write-project.ts';

export interface CreateCliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether questions can be asked: stdin and stdout are a terminal. */
  interactive: boolean;
  out(text: string): void;
  error(text: string): void;
  asker?: () => Asker;
}

/**
 * Runs the command; resolves to the exit code (2 with one line on stderr for anything refused).
 *
 * @example
 * process.exitCode = await runCreateCli(process.argv.slice(2), { cwd: process.cwd(), env: process.env, interactive: false, out: console.log, error: console.error });
 */
export async function runCreateCli(argv: readonly string[], io: CreateCliIo): Promise<number> {
  let asker: Asker | undefined;
  try {
    const parsed = parseCreateArguments(argv, io.cwd);
    if (parsed.help) {
      io.out(createUsage);
      return 0;
    }
    if (parsed.version) {
      const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
      io.out(`${manifest.version}\n`);
      return 0;
    }
    asker = io.interactive && !parsed.yes ? (io.asker ?? terminalAsker)() : undefined;
    const options = await completeCreateOptions(parsed.given, asker, io.env);
    const problems = createOptionsProblems(options);
    if (problems.length > 0) {
      io.error(`create-toolshed-server: ${problems[0]}\n`);
      return 2;
    }
    const files = writeProject(options);
    const where = relative(io.cwd, options.directory) || '.';
    const run = options.packageManager;
    io.out(
      `Created ${options.packageName} in ${where} (${files.length} files). Next:\n\n` +
        `  cd ${where}\n  ${run} install\n  ${run} test\n\n` +
        'AGENTS.md and the README say the three rules: nothing but JSON-RPC on stdout, ask before the side effect, ' +
        `and rerun the schema test with -u (${run} test -- -u) after changing a schema.\n`,
    );
    return 0;
  } catch (error) {
    io.error(`create-toolshed-server: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  } finally {
    asker?.close();
  }
}
